import { describe, expect, it } from "vitest";
import { db } from "@/server/db";
import { newInvitationToken } from "@/server/team/invitation-token";
import { createTestAccount } from "@/tests/support/fixtures";
import { baseUrl, uniqueEmail } from "@/tests/support/http";
import { signIn, trpc } from "@/tests/support/session";

// POST /invitations/<token>/sign-in, the invitation page's "Continue as <address>": from our own
// page only, it redirects to Auth.js's e-mail callback with a one-time token, which signs the
// invited address in (a new user signed up, consent and sign-in recorded) and returns to the
// invitation, where Accept works. Closed links and signed-in visitors go back to the page.

async function invitation(dates: { revokedAt?: Date } = {}) {
  const { accountId } = await createTestAccount();
  const email = uniqueEmail("invited");
  const { token, tokenHash, expiresAt } = newInvitationToken();
  await db.invitation.create({ data: { accountId, email, role: "member", tokenHash, expiresAt, ...dates } });
  return { accountId, email, token, page: `${baseUrl()}/invitations/${token}` };
}

function continueAs(token: string, headers: Record<string, string> = { origin: baseUrl() }) {
  return fetch(`${baseUrl()}/invitations/${token}/sign-in`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: "" });
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
});
