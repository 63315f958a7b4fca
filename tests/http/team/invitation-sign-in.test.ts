import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { newInvitationToken } from "@/server/team/invitation-token";
import { createTestAccount } from "@/tests/support/fixtures";
import { baseUrl, uniqueEmail } from "@/tests/support/http";
import { latestSignInLink, signIn, trpc } from "@/tests/support/session";

// POST /invitations/<token>/sign-in, the invitation page's "Continue as <address>": from our own
// page only, it redirects to Auth.js's e-mail callback with a one-time token, which signs the
// invited address in (a new user signed up, consent and sign-in recorded) and returns to the
// invitation, where Accept works. Closed links and signed-in visitors go back to the page. It
// signs in once per invitation and only an address with no login yet: an address with one is
// offered the ordinary e-mailed magic link, which brings it back to accept.

async function invitation(dates: { revokedAt?: Date } = {}, email = uniqueEmail("invited")) {
  const { accountId } = await createTestAccount();
  const { token, tokenHash, expiresAt } = newInvitationToken();
  await db.invitation.create({ data: { accountId, email, role: "member", tokenHash, expiresAt, ...dates } });
  return { accountId, email, token, page: `${baseUrl()}/invitations/${token}` };
}

function continueAs(token: string, headers: Record<string, string> = { origin: baseUrl() }) {
  return fetch(`${baseUrl()}/invitations/${token}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: "",
  });
}

/** Asks Auth.js for the ordinary magic link to `email`, returning to `callbackUrl`, as the invitation page's button does. */
async function requestSignInLinkTo(email: string, callbackUrl: string) {
  const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((entry) => entry.split(";")[0] ?? "")
    .join("; ");
  return fetch(`${baseUrl()}/api/auth/signin/email`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-auth-return-redirect": "1", origin: baseUrl() },
    body: new URLSearchParams({ email, csrfToken, callbackUrl }),
  });
}

const sessionCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .find((cookie) => cookie.startsWith("authjs.session-token="));

describe("an invitation link signs the invited address in", () => {
  it("signs up a new address through Auth.js's callback and brings it back to accept", async () => {
    const { accountId, email, token, page } = await invitation();
    const shown = await fetch(page);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain("Continue as");
    expect(html).toContain(`action="/invitations/${token}/sign-in"`);

    const minted = await continueAs(token);
    expect(minted.status).toBe(303);
    const callback = new URL(minted.headers.get("location") ?? "");
    expect(`${callback.origin}${callback.pathname}`).toBe(`${baseUrl()}/api/auth/callback/email`);
    expect(callback.searchParams.get("email")).toBe(email);

    const opened = await fetch(callback, { redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(page);
    const cookie = sessionCookie(opened);
    expect(cookie).toBeTruthy();

    // A new user with their personal account, their consent and the sign-in recorded; then Accept.
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(user.emailVerified).not.toBeNull();
    expect(user.termsVersion).not.toBeNull();
    const actions = (await db.activityEvent.findMany({ where: { actor: user.id }, select: { action: true } })).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(["auth.signed_in", "consent.terms_accepted", "consent.privacy_accepted"]));
    const accepted = await trpc("team.accept", { token }, { cookie, mutation: true });
    expect(accepted.status).toBe(200);
    expect(accepted.data).toMatchObject({ accountId });

    // The minted link was single-use.
    const again = await fetch(callback, { redirect: "manual" });
    expect(again.headers.get("location")).toContain("/login?error=Verification");
    // Only the invitation was e-mailed: no sign-in link.
    expect(await db.emailOutbox.count({ where: { to: email, kind: "auth.sign_in" } })).toBe(0);
  });

  it("refuses a POST from another site or with no origin, and a GET", async () => {
    const { email, token } = await invitation();
    expect((await continueAs(token, { origin: "https://evil.example" })).status).toBe(403);
    expect((await continueAs(token, {})).status).toBe(403);
    expect((await fetch(`${baseUrl()}/invitations/${token}/sign-in`, { redirect: "manual" })).status).toBe(405);
    expect(await db.verificationToken.count({ where: { identifier: email } })).toBe(0);
  });

  it("sends a closed or unknown link, and a signed-in visitor, back to the invitation page", async () => {
    const revoked = await invitation({ revokedAt: new Date() });
    const refused = await continueAs(revoked.token);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`${revoked.page}?sign_in=revoked`);
    expect(await db.verificationToken.count({ where: { identifier: revoked.email } })).toBe(0);

    const unknown = newInvitationToken().token;
    expect((await continueAs(unknown)).headers.get("location")).toBe(`${baseUrl()}/invitations/${unknown}?sign_in=invalid`);

    const open = await invitation();
    const { cookie } = await signIn(uniqueEmail("already-in"));
    const signedIn = await continueAs(open.token, { origin: baseUrl(), cookie });
    expect(signedIn.headers.get("location")).toBe(`${open.page}?sign_in=signed_in`);
    expect(sessionCookie(signedIn)).toBeUndefined();
    expect(await db.verificationToken.count({ where: { identifier: open.email } })).toBe(0);
  });

  it("signs in at most once per invitation: a second POST, even one at the same moment, is refused and the page offers the e-mail link", async () => {
    const { email, token, page } = await invitation();
    const both = await Promise.all([continueAs(token), continueAs(token)]);
    const locations = both.map((response) => response.headers.get("location") ?? "");
    expect(both.map((response) => response.status)).toEqual([303, 303]);
    const minted = locations.filter((location) => location.startsWith(`${baseUrl()}/api/auth/callback/email?`));
    expect(minted).toHaveLength(1);
    expect(locations.filter((location) => location === `${page}?sign_in=used`)).toHaveLength(1);
    expect((await continueAs(token)).headers.get("location")).toBe(`${page}?sign_in=used`);
    expect(await db.verificationToken.count({ where: { identifier: email } })).toBe(1);

    // Once used, signed out again: the page no longer offers "Continue as", only the e-mailed link.
    const signedIn = await fetch(minted[0]!, { redirect: "manual" });
    expect(sessionCookie(signedIn)).toBeTruthy();
    const html = await (await fetch(`${page}?sign_in=used`)).text();
    expect(html).not.toContain(`action="/invitations/${token}/sign-in"`);
    expect(html).toContain("E-mail a sign-in link to");
    expect(html).toContain("This invitation already signed in once.");
  });

  it("refuses an address that already has a login; the page offers the ordinary magic link, which brings it back to accept", async () => {
    const email = uniqueEmail("has-login");
    await signIn(email);
    const { accountId, token, page } = await invitation({}, email);

    const shown = await (await fetch(page)).text();
    expect(shown).not.toContain(`action="/invitations/${token}/sign-in"`);
    expect(shown).toContain("E-mail a sign-in link to");

    const tokensBefore = await db.verificationToken.count({ where: { identifier: email } });
    const refused = await continueAs(token);
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe(`${page}?sign_in=has_login`);
    expect(sessionCookie(refused)).toBeUndefined();
    expect(await db.verificationToken.count({ where: { identifier: email } })).toBe(tokensBefore);
    expect(await (await fetch(`${page}?sign_in=has_login`)).text()).toContain(
      "This address already has a Darkroom login, so the invitation link does not sign it in.",
    );

    // The ordinary magic link (single-use, 15 minutes), asked for the invitation page, then Accept.
    expect((await requestSignInLinkTo(email, `/invitations/${token}`)).status).toBe(200);
    const opened = await fetch(await latestSignInLink(email), { redirect: "manual" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(page);
    const cookie = sessionCookie(opened);
    expect(cookie).toBeTruthy();
    const accepted = await trpc("team.accept", { token }, { cookie, mutation: true });
    expect(accepted.status).toBe(200);
    expect(accepted.data).toMatchObject({ accountId });
  });
});
