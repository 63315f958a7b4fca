import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@/e2e/support/fixtures";
import { signInThroughMailbox } from "@/e2e/support/sign-in";

// Pages run under a Content-Security-Policy with a fresh script nonce per request, and no page may
// be framed by another site (clickjacking on revoke, delete). Every spec fails on a CSP violation
// (e2e/support/fixtures.ts); the pages here have no other test of their own.

const scriptNonce = (policy: string | undefined) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1];

test("public pages run their scripts under a nonce policy, a new nonce each time", async ({ page }) => {
  const nonces: string[] = [];
  for (const path of ["/", "/login", "/legal/terms", "/legal/privacy", "/login"]) {
    const response = await page.goto(path);
    const policy = response?.headers()["content-security-policy"];
    expect(policy, path).toContain("frame-ancestors 'none'");
    expect(policy, path).toContain("'strict-dynamic'");
    expect(policy, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(response?.headers()["x-frame-options"], path).toBe("DENY");
    const nonce = scriptNonce(policy);
    expect(nonce, path).toBeTruthy();
    nonces.push(nonce ?? "");
    // Next's own scripts carry it, and they ran: the page hydrated (React gave it its handlers).
    const scripts = await page.locator("script").evaluateAll((elements) => elements.map((element) => (element as HTMLScriptElement).nonce));
    expect(scripts.length, path).toBeGreaterThan(0);
    expect(new Set(scripts), path).toEqual(new Set([nonce]));
  }
  expect(new Set(nonces).size).toBe(nonces.length);
  // The sign-in form works under the policy (it is marked ready once hydrated).
  await page.goto("/login");
  await page.locator("form[data-ready]").waitFor();
});

test("a CSP violation fails a spec", async ({ page, browserErrors }) => {
  await page.goto("/");
  // An image from a host the policy does not allow (img-src allows https:, not plain http elsewhere).
  await page.evaluate(() => {
    const image = document.createElement("img");
    image.src = "http://192.0.2.1/pixel.png";
    document.body.append(image);
  });
  await expect.poll(() => browserErrors.some((error) => error.includes("CSP violation: img-src"))).toBe(true);
  browserErrors.length = 0; // seen: the fixture would fail this test for it
});

/** The attacker's site: another origin (another port) whose page frames `target`. */
async function framingSite(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(`<!doctype html><title>Win a prize</title><iframe name="victim" src="${target}" width="800" height="600"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test("the dashboard refuses to be framed by another site", async ({ page, browserErrors }) => {
  const { accountId } = await signInThroughMailbox(page);
  const dashboard = new URL(`/dashboard/${accountId}/keys`, page.url()).href;
  const attacker = await framingSite(dashboard);
  try {
    // Same site (127.0.0.1), so the session cookie goes along: the frame would show the signed-in dashboard.
    const framed = page.waitForResponse((response) => response.url() === dashboard);
    await page.goto(attacker.url);
    const answer = await framed;
    expect(answer.status()).toBe(200);
    expect(answer.headers()["x-frame-options"]).toBe("DENY");
    expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    // Chromium refuses to show it: the frame holds its error page, never the dashboard.
    await expect.poll(() => browserErrors.some((error) => /frame-ancestors|X-Frame-Options/.test(error))).toBe(true);
    await expect.poll(() => page.frame({ name: "victim" })?.url()).not.toBe(dashboard);
    await expect(page.frameLocator("iframe").getByRole("heading", { name: "API keys" })).toHaveCount(0);
  } finally {
    await attacker.close();
  }
  browserErrors.length = 0; // the refusal Chromium logs is what this test wants
});
