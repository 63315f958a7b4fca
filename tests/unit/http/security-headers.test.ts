import { describe, expect, it } from "vitest";
import { isHttpsAppUrl, newScriptNonce, pageContentSecurityPolicy, securityHeaders } from "@/server/edge/http/security-headers";

describe("securityHeaders", () => {
  it("adds HSTS for an https APP_URL only", () => {
    expect(securityHeaders({ https: isHttpsAppUrl("https://darkroom.example") })["strict-transport-security"]).toBe(
      "max-age=63072000; includeSubDomains",
    );
    expect(securityHeaders({ https: isHttpsAppUrl("http://localhost:3000") })).not.toHaveProperty("strict-transport-security");
  });

  it("refuses framing and sniffing, and turns off powerful features", () => {
    expect(securityHeaders({ https: false })).toMatchObject({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "strict-origin-when-cross-origin",
      "permissions-policy": expect.stringContaining("camera=(), microphone=(), geolocation=()"),
    });
  });
});

describe("pageContentSecurityPolicy", () => {
  it("allows scripts by nonce only, and no framing", () => {
    const policy = pageContentSecurityPolicy({ nonce: "abc", https: false, dev: false });
    expect(policy).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("upgrade-insecure-requests");
    expect(pageContentSecurityPolicy({ nonce: "abc", https: true, dev: false })).toContain("upgrade-insecure-requests");
  });

  it("uses a new nonce of 128 bits each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, newScriptNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});
