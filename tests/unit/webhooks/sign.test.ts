import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signPayload, verifySignature } from "@/server/webhooks/sign";

// The webhook signature: `t=<unix seconds>,v1=<lowercase hex HMAC-SHA256,
// keyed by the secret's UTF-8 bytes, of "${t}.${rawBody}">`, receivers allowing 300 s of skew.

const secret = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3I";
const body = JSON.stringify({
  webhook_event: "webhook.test",
  webhook_timestamp: "2026-01-01T00:00:00.000Z",
  webhook_delivery_id: "d",
  webhook_data: { note: "héllo ✓" },
});
const t = 1_767_225_600;
const at = (seconds: number) => seconds * 1000;

describe("signPayload", () => {
  it("has the form t=<unix seconds>,v1=<64 lowercase hex>", () => {
    expect(signPayload(secret, t, body)).toMatch(/^t=1767225600,v1=[0-9a-f]{64}$/);
  });

  it("is the HMAC-SHA256 of `${t}.${rawBody}` keyed by the secret's UTF-8 bytes, computed independently", () => {
    const expected = createHmac("sha256", new TextEncoder().encode(secret))
      .update(new TextEncoder().encode(`${t}.${body}`))
      .digest("hex");
    expect(signPayload(secret, t, body)).toBe(`t=${t},v1=${expected}`);
  });

  it("refuses a timestamp that is not whole seconds (milliseconds included)", () => {
    expect(() => signPayload(secret, 1.5, body)).toThrow();
    expect(() => signPayload(secret, Date.now(), body)).toThrow();
  });
});

describe("verifySignature", () => {
  const header = signPayload(secret, t, body);

  it("accepts its own signature (round trip)", () => {
    expect(verifySignature(header, secret, body, { now: at(t) })).toEqual({ valid: true, timestamp: t });
  });

  it("allows 300 s of skew either way: 299 s ok, 300 s ok, 301 s refused", () => {
    expect(verifySignature(header, secret, body, { now: at(t + 299) }).valid).toBe(true);
    expect(verifySignature(header, secret, body, { now: at(t - 299) }).valid).toBe(true);
    expect(verifySignature(header, secret, body, { now: at(t + 300) }).valid).toBe(true);
    expect(verifySignature(header, secret, body, { now: at(t + 301) })).toEqual({ valid: false, reason: "timestamp_out_of_tolerance" });
    expect(verifySignature(header, secret, body, { now: at(t - 301) })).toEqual({ valid: false, reason: "timestamp_out_of_tolerance" });
  });

  it("honours a custom tolerance", () => {
    expect(verifySignature(header, secret, body, { now: at(t + 10), toleranceSeconds: 5 }).valid).toBe(false);
  });

  it("refuses a tampered body, another secret, or a moved timestamp", () => {
    expect(verifySignature(header, secret, body.replace("héllo", "hello"), { now: at(t) })).toEqual({
      valid: false,
      reason: "signature_mismatch",
    });
    expect(verifySignature(header, `${secret}x`, body, { now: at(t) })).toEqual({ valid: false, reason: "signature_mismatch" });
    expect(verifySignature(header.replace(`t=${t}`, `t=${t + 1}`), secret, body, { now: at(t) })).toEqual({
      valid: false,
      reason: "signature_mismatch",
    });
    // The signed string is the raw body: the same JSON re-serialized with other spacing does not verify.
    expect(verifySignature(header, secret, JSON.stringify(JSON.parse(body), null, 2), { now: at(t) }).valid).toBe(false);
  });

  it("accepts any one of several v1 entries (a receiver may list old and new)", () => {
    const other = signPayload("whsec_other", t, body).split(",")[1];
    expect(verifySignature(`t=${t},${other},${header.split(",")[1]}`, secret, body, { now: at(t) }).valid).toBe(true);
    expect(verifySignature(`t=${t}, ${other}`, secret, body, { now: at(t) }).valid).toBe(false);
  });

  it("refuses malformed headers", () => {
    for (const bad of [
      null,
      undefined,
      "",
      "garbage",
      `v1=${"a".repeat(64)}`,
      `t=${t}`,
      `t=${t},v1=XYZ`,
      `t=abc,v1=${"a".repeat(64)}`,
      `t=${t},v0=${"a".repeat(64)}`,
    ]) {
      expect(verifySignature(bad, secret, body, { now: at(t) }), String(bad)).toEqual({ valid: false, reason: "malformed_header" });
    }
  });

  it("uses the clock by default", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(signPayload(secret, now, body), secret, body).valid).toBe(true);
    expect(verifySignature(signPayload(secret, now - 400, body), secret, body).valid).toBe(false);
  });
});
