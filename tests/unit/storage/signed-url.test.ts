import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/base/env";
import { fileSignature, signFileUrl, verifyFileSignature } from "@/server/storage/signed-url";

const SECRET = "test-secret-for-file-links";
const saved = { AUTH_SECRET: process.env.AUTH_SECRET, APP_URL: process.env.APP_URL, PORT: process.env.PORT };

function setEnv(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
}

beforeAll(() => setEnv({ AUTH_SECRET: SECRET, APP_URL: "https://api.darkroom.test/", PORT: undefined }));
afterAll(() => setEnv(saved));

const key = "outputs/acc_1/gen_2/0.png";
const expiresAt = new Date("2030-01-02T03:04:05.678Z");
const expires = Math.floor(expiresAt.getTime() / 1000);

describe("signFileUrl", () => {
  it("builds APP_URL/files/<key> with expires and the HMAC of key + newline + expires", () => {
    const url = new URL(signFileUrl(key, { expiresAt }));
    expect(`${url.origin}${url.pathname}`).toBe(`https://api.darkroom.test/files/${key}`);
    expect(url.searchParams.get("expires")).toBe(String(expires));
    const expected = createHmac("sha256", SECRET).update(`${key}\n${expires}`).digest("hex");
    expect(url.searchParams.get("signature")).toBe(expected);
    expect(fileSignature(key, expires)).toBe(expected);
  });

  it("defaults APP_URL to http://localhost:PORT", () => {
    setEnv({ APP_URL: undefined, PORT: "4321" });
    try {
      expect(signFileUrl(key, { expiresAt })).toMatch(
        /^http:\/\/localhost:4321\/files\/outputs\/acc_1\/gen_2\/0\.png\?expires=\d+&signature=[0-9a-f]{64}$/,
      );
    } finally {
      setEnv({ APP_URL: "https://api.darkroom.test/", PORT: undefined });
    }
  });

  it("refuses a key that is not a storage key", () => {
    expect(() => signFileUrl("../etc/passwd", { expiresAt })).toThrow(/Invalid storage key/);
  });

  it("needs AUTH_SECRET", () => {
    setEnv({ AUTH_SECRET: undefined });
    try {
      expect(() => signFileUrl(key, { expiresAt })).toThrow(/AUTH_SECRET/);
    } finally {
      setEnv({ AUTH_SECRET: SECRET });
    }
  });
});

describe("verifyFileSignature", () => {
  const signature = () => new URL(signFileUrl(key, { expiresAt })).searchParams.get("signature")!;
  const before = new Date((expires - 1) * 1000);

  it("accepts the link it signed, with expires as text or number", () => {
    expect(verifyFileSignature(key, String(expires), signature(), before)).toBe(true);
    expect(verifyFileSignature(key, expires, signature(), before)).toBe(true);
  });

  it("is valid until the last millisecond before expires, and not at expires", () => {
    expect(verifyFileSignature(key, expires, signature(), new Date(expires * 1000 - 1))).toBe(true);
    expect(verifyFileSignature(key, expires, signature(), new Date(expires * 1000))).toBe(false);
    expect(verifyFileSignature(key, expires, signature(), new Date(expires * 1000 + 1))).toBe(false);
  });

  it("never outlives expiresAt (rounded down to the second)", () => {
    expect(expires * 1000).toBeLessThanOrEqual(expiresAt.getTime());
  });

  it("refuses another key with the same signature", () => {
    expect(verifyFileSignature("outputs/acc_1/gen_2/1.png", expires, signature(), before)).toBe(false);
  });

  it("refuses a pushed-out expiry", () => {
    expect(verifyFileSignature(key, expires + 3600, signature(), before)).toBe(false);
  });

  it("refuses a tampered signature, one hex digit changed", () => {
    const original = signature();
    const tampered = `${original.slice(0, -1)}${original.endsWith("0") ? "1" : "0"}`;
    expect(verifyFileSignature(key, expires, tampered, before)).toBe(false);
  });

  it.each([
    ["empty", ""],
    ["upper case", "A".repeat(64)],
    ["too short", "ab".repeat(31)],
    ["too long", "ab".repeat(33)],
    ["not hex", "zz".repeat(32)],
  ])("refuses a malformed signature (%s) without throwing", (_label, bad) => {
    expect(verifyFileSignature(key, expires, bad, before)).toBe(false);
  });

  it.each(["", "-1", "1e10", "12.5", " 123", "9999999999999"])("refuses a malformed expires %j", (bad) => {
    expect(verifyFileSignature(key, bad, signature(), before)).toBe(false);
  });

  it("refuses a link signed with another secret", () => {
    const foreign = createHmac("sha256", "another-secret").update(`${key}\n${expires}`).digest("hex");
    expect(verifyFileSignature(key, expires, foreign, before)).toBe(false);
  });
});
