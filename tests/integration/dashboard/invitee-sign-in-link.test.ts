import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { darkroomAuthAdapter } from "@/server/auth/adapter";
import { hashVerificationToken, MINTED_LINK_MAX_AGE_SECONDS } from "@/server/auth/mint-sign-in-link";
import { consumeSignInLinkAllowance, SIGN_IN_LINKS_PER_WINDOW } from "@/server/auth/send-sign-in-link";
import { db, disconnectDb } from "@/server/base/db";
import { env } from "@/server/base/env";
import { ensureAuthSecret } from "@/server/start/secrets";
import { newInvitationToken } from "@/server/team/invitation-token";
import { findInvitationByToken } from "@/server/team/find-invitation";
import { inviteeSignInLink, inviteeSignInOption } from "@/server/team/invitee-sign-in-link";
import { createTestAccount } from "@/tests/support/fixtures";
import { uniqueEmail } from "@/tests/support/http";

// "Continue as <invited address>" on an invitation link: a pending invitation, opened signed out,
// mints one sign-in link for the invited address only, stored as Auth.js stores a magic link's
// token (so its own callback, through the adapter, accepts it); an unknown, replaced, revoked,
// expired, accepted or declined invitation mints nothing, nor does a signed-in visitor's request,
// and minting counts against the address's sign-in link allowance. It mints once per invitation,
// and never for an address that already has a login (that user gets the ordinary magic link).

beforeAll(ensureAuthSecret);
afterAll(disconnectDb);

type InvitationDates = { expiresAt?: Date; acceptedAt?: Date; revokedAt?: Date; declinedAt?: Date };

/** An invitation of a fresh account for a fresh address; returns the link's token. */
async function invitation(dates: InvitationDates = {}, email = uniqueEmail("invitee")) {
  const { accountId } = await createTestAccount();
  const { token, tokenHash, expiresAt } = newInvitationToken();
  await db.invitation.create({ data: { accountId, email, role: "member", tokenHash, expiresAt, ...dates } });
  return { token, email };
}

const tokensOf = (email: string) => db.verificationToken.findMany({ where: { identifier: email } });

describe("invitee sign-in links", () => {
  it("mints one short-lived link for the invited address that Auth.js's callback consumes once", async () => {
    const { token, email } = await invitation();
    const result = await inviteeSignInLink(db, { token, signedInUserId: null });
    if (!result.ok) throw new Error(`refused: ${result.reason}`);

    const url = new URL(result.url);
    expect(url.origin).toBe(new URL(env().APP_URL ?? `http://localhost:${env().PORT}`).origin);
    expect(url.pathname).toBe("/api/auth/callback/email");
    expect(url.searchParams.get("email")).toBe(email);
    expect(url.searchParams.get("callbackUrl")).toBe(`/invitations/${token}`);
    const raw = url.searchParams.get("token") ?? "";
    expect(raw).toMatch(/^[0-9a-f]{64}$/);

    // Stored hashed exactly as Auth.js hashes a magic link's token, for this address alone.
    const stored = await tokensOf(email);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.token).toBe(hashVerificationToken(raw, env().AUTH_SECRET ?? ""));
    expect(await db.verificationToken.count({ where: { token: raw } })).toBe(0);
    const lifetime = (stored[0]?.expires.getTime() ?? 0) - Date.now();
    expect(lifetime).toBeGreaterThan((MINTED_LINK_MAX_AGE_SECONDS - 60) * 1000);
    expect(lifetime).toBeLessThanOrEqual(MINTED_LINK_MAX_AGE_SECONDS * 1000);

    // What Auth.js's callback does with the link: another address does not match; the invited one does, once.
    const adapter = darkroomAuthAdapter();
    const hashed = hashVerificationToken(raw, env().AUTH_SECRET ?? "");
    expect(await adapter.useVerificationToken?.({ identifier: uniqueEmail("someone-else"), token: hashed })).toBeNull();
    expect(await adapter.useVerificationToken?.({ identifier: email, token: hashed })).toMatchObject({ identifier: email });
    expect(await adapter.useVerificationToken?.({ identifier: email, token: hashed })).toBeNull();
  });

  it.each([
    ["revoked", { revokedAt: new Date() }],
    ["expired", { expiresAt: new Date(Date.now() - 1000) }],
    ["accepted", { acceptedAt: new Date() }],
    ["declined", { declinedAt: new Date() }],
  ] as const)("refuses a %s invitation and mints nothing", async (status, dates) => {
    const { token, email } = await invitation(dates);
    expect(await inviteeSignInLink(db, { token, signedInUserId: null })).toEqual({ ok: false, reason: status });
    expect(await tokensOf(email)).toEqual([]);
  });

  it("refuses an unknown, replaced or oversized link", async () => {
    expect(await inviteeSignInLink(db, { token: newInvitationToken().token, signedInUserId: null })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await inviteeSignInLink(db, { token: "", signedInUserId: null })).toEqual({ ok: false, reason: "invalid" });
    expect(await inviteeSignInLink(db, { token: "x".repeat(201), signedInUserId: null })).toEqual({ ok: false, reason: "invalid" });
  });

  it("leaves a signed-in visitor's session alone: no link, whoever they are", async () => {
    const { token, email } = await invitation();
    const { userId } = await createTestAccount();
    expect(await inviteeSignInLink(db, { token, signedInUserId: userId })).toEqual({ ok: false, reason: "signed_in" });
    expect(await tokensOf(email)).toEqual([]);
  });

  it("mints at most once per invitation, even for calls at the same moment", async () => {
    const { token, email } = await invitation();
    const results = await Promise.all([1, 2, 3].map(() => inviteeSignInLink(db, { token, signedInUserId: null })));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([
      { ok: false, reason: "used" },
      { ok: false, reason: "used" },
    ]);
    expect(await tokensOf(email)).toHaveLength(1);
    expect(await inviteeSignInOption(db, (await findInvitationByToken(db, token))!)).toBe("email_link");
  });

  it("mints nothing for an address that already has a login, and offers it the e-mailed link", async () => {
    const { email } = await createTestAccount();
    const { token } = await invitation({}, email);
    expect(await inviteeSignInOption(db, (await findInvitationByToken(db, token))!)).toBe("email_link");
    expect(await inviteeSignInLink(db, { token, signedInUserId: null })).toEqual({ ok: false, reason: "has_login" });
    expect(await tokensOf(email)).toEqual([]);

    const fresh = await invitation();
    expect(await inviteeSignInOption(db, (await findInvitationByToken(db, fresh.token))!)).toBe("continue");
  });

  it("counts against the address's sign-in link allowance", async () => {
    // The allowance is a fixed 10-minute window: stay clear of its edge.
    const intoWindow = Date.now() % (10 * 60 * 1000);
    if (intoWindow > 10 * 60 * 1000 - 5000) await new Promise((resolve) => setTimeout(resolve, 10 * 60 * 1000 - intoWindow + 200));
    const { token, email } = await invitation();
    for (let i = 1; i < SIGN_IN_LINKS_PER_WINDOW; i++) await consumeSignInLinkAllowance(email);
    expect(await inviteeSignInLink(db, { token, signedInUserId: null })).toMatchObject({ ok: true });
    expect(await inviteeSignInLink(db, { token, signedInUserId: null })).toEqual({ ok: false, reason: "rate_limited" });
    expect(await tokensOf(email)).toHaveLength(1);
  });
});
