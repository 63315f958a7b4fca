import { describe, expect, it } from "vitest";
import { baseUrl } from "@/tests/support/http";
import { signIn, trpc } from "@/tests/support/session";

// Every answer carries the security headers, whoever serves it: Next's pages (with a fresh script
// nonce in their CSP), the /v1 routes (answered directly, by the edge, or through Next), tRPC,
// Auth.js and /files. HSTS only with an https APP_URL (tests/unit/http/security-headers.test.ts).

const get = (path: string, init: RequestInit = {}) => fetch(`${baseUrl()}${path}`, { redirect: "manual", ...init });

function expectNoFramingOrSniffing(response: Response, what: string) {
  expect(response.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(response.headers.get("x-frame-options"), what).toBe("DENY");
  expect(response.headers.get("content-security-policy"), what).toContain("frame-ancestors 'none'");
  expect(response.headers.get("referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("permissions-policy"), what).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
  // APP_URL is http here: no HSTS.
  expect(response.headers.get("strict-transport-security"), what).toBeNull();
}

const nonceOf = (response: Response) =>
  /script-src [^;]*'nonce-([A-Za-z0-9+/=]+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];

describe("pages", () => {
  it("send a CSP with a script nonce, never unsafe-inline scripts, and a new nonce every request", async () => {
    const { cookie } = await signIn(`headers-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const [account] = (await trpc("account.list", undefined, { cookie })).data;
    for (const [path, init] of [
      ["/", {}],
      ["/login", {}],
      ["/legal/terms", {}],
      ["/invitations/no-such-token", {}],
      [`/dashboard/${account.accountId}/keys`, { headers: { cookie } }],
    ] as const) {
      const first = await get(path, init);
      const second = await get(path, init);
      expectNoFramingOrSniffing(first, path);
      const policy = first.headers.get("content-security-policy") ?? "";
      expect(policy, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(nonceOf(first), path).toBeTruthy();
      expect(nonceOf(second), path).toBeTruthy();
      expect(nonceOf(first), path).not.toBe(nonceOf(second));
      // The HTML's scripts carry the nonce its policy names.
      if (first.status === 200) expect(await first.text(), path).toContain(`nonce="${nonceOf(first)}"`);
    }
  });
});

describe("answers that are not pages", () => {
  it("/v1 (direct, through Next, from the edge), tRPC, Auth.js and /files carry nosniff, no framing and a Referrer-Policy", async () => {
    const answers: Array<[string, Response]> = [
      ["/v1/status (a direct route)", await get("/v1/status")],
      ["/api/v1/status (through Next)", await get("/api/v1/status")],
      ["/v1 (the edge)", await get("/v1")],
      ["/v1/%zz (the edge, malformed)", await get("/v1/%zz")],
      ["/api/trpc", await get(`/api/trpc/account.list?input=${encodeURIComponent(JSON.stringify({ json: null }))}`)],
      ["/api/auth/session", await get("/api/auth/session")],
      ["/files (unsigned)", await get("/files/outputs/nothing.png")],
    ];
    for (const [what, response] of answers) {
      expectNoFramingOrSniffing(response, what);
      expect(response.headers.get("content-security-policy"), what).toContain("default-src 'none'");
    }
  });
});
