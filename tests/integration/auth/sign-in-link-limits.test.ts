import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startResendFake, type ResendFake } from "@/tests/fakes/resend-fake";
import { ownServer, type OwnServer } from "@/tests/support/own-server";
import { clearOfSignInWindowEdge } from "@/tests/support/sign-in-window";

// The per-client and total limits on sign-in links, on a server of its own (the shared test app
// asks for every link from 127.0.0.1 and raises both), with small limits and e-mail through a
// Resend fake, so what reaches Resend is seen as Resend sees it. Clients are played through
// X-Forwarded-For (127.0.0.1 is a trusted proxy).

const PER_CLIENT = 3;
const TOTAL = 10;

let resend: ResendFake;
let server: OwnServer;

beforeAll(async () => {
  resend = await startResendFake();
  server = ownServer("sign-in-limits", {
    env: {
      RESEND_API_KEY: resend.apiKey,
      RESEND_BASE_URL: resend.baseUrl,
      TRUSTED_PROXIES: "127.0.0.1,::1",
      SIGN_IN_LINKS_PER_IP: String(PER_CLIENT),
      SIGN_IN_LINKS_TOTAL: String(TOTAL),
    },
  });
  await server.start();
}, 120_000);
afterAll(async () => {
  await server?.dispose();
  await resend?.close();
}, 60_000);

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");

/** What the login page does: Auth.js's CSRF token, then POST /api/auth/signin/email; the URL it is sent to. */
async function ask(email: string, clientIp: string): Promise<string> {
  const csrf = await fetch(`${server.baseUrl()}/api/auth/csrf`, { headers: { "x-forwarded-for": clientIp } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const reply = await fetch(`${server.baseUrl()}/api/auth/signin/email`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookiesOf(csrf).join("; "),
      "x-auth-return-redirect": "1",
      "x-forwarded-for": clientIp,
    },
    body: new URLSearchParams({ email, csrfToken, callbackUrl: "/dashboard" }),
  });
  expect(reply.status).toBe(200);
  const { url } = (await reply.json()) as { url: string };
  return new URL(url).pathname + new URL(url).search;
}

const SENT = "/api/auth/verify-request?provider=email&type=email";
const REFUSED = "/login?error=AccessDenied";

describe("sign-in link limits", () => {
  it("holds per client and in total; only single good addresses reach Resend", async () => {
    await clearOfSignInWindowEdge(90_000);
    const asked: Array<[string, string, string]> = [];
    const expectAnswer = async (email: string, clientIp: string, answer: string) => {
      asked.push([email, clientIp, answer]);
      expect(await ask(email, clientIp), `${email} from ${clientIp}`).toBe(answer);
    };

    // One client: PER_CLIENT links, then refused, whatever the address.
    for (const name of ["a1", "a2", "a3"]) await expectAnswer(`${name}@a.test`, "203.0.113.10", SENT);
    await expectAnswer("a4@a.test", "203.0.113.10", REFUSED);

    // Another client is counted apart. Malformed addresses answer as good ones and count, but send nothing.
    await expectAnswer('"mallory@evil.test"@b.test', "203.0.113.11", SENT);
    await expectAnswer("bob@b.test,mallory@evil.test", "203.0.113.11", SENT);
    await expectAnswer("b1@b.test", "203.0.113.11", SENT);

    // An IPv6 client is its /64.
    for (const host of ["1", "2", "3"]) await expectAnswer(`v${host}@v6.test`, `2001:db8:7:7::${host}`, SENT);
    await expectAnswer("v4@v6.test", "2001:db8:7:7:ffff::4", REFUSED);
    // (3 + 3 + 3 counted in total so far: the refused ones stopped at their client's limit.)

    // The total: one more, then every client is refused.
    await expectAnswer("c1@c.test", "198.51.100.20", SENT);
    await expectAnswer("c2@c.test", "198.51.100.20", REFUSED);
    await expectAnswer("d1@d.test", "198.51.100.21", REFUSED);

    expect(resend.emails.map((email) => email.to)).toEqual([
      ["a1@a.test"],
      ["a2@a.test"],
      ["a3@a.test"],
      ["b1@b.test"],
      ["v1@v6.test"],
      ["v2@v6.test"],
      ["v3@v6.test"],
      ["c1@c.test"],
    ]);
  });
});
