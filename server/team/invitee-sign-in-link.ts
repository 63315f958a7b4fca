import "server-only";
import { recordSignInRefusal } from "../auth/auth-activity";
import { mintSignInLink } from "../auth/mint-sign-in-link";
import { consumeSignInLinkAllowance } from "../auth/send-sign-in-link";
import type { Db } from "../base/db";
import { findInvitationByToken, type InvitationView } from "./find-invitation";
import type { InvitationStatus } from "./invitation-status";

// "Continue as <invited address>" on an invitation link. The invitation e-mail proved control of
// that mailbox as a magic link does, so a signed-out visitor of a pending invitation gets a
// one-time sign-in link for the invited address (never any other), which brings them back to the
// invitation signed in, a new user signed up. But the link lives 7 days, so it is no password:
// it signs in at most once per invitation, and only an address with no login yet (no user). An
// address that has one gets the ordinary 15-minute magic link by e-mail instead (the page offers
// it), then accepts signed in. Unknown, replaced and closed links get none; someone signed in
// keeps their session (the page tells a different address what to do). Minting counts against the
// address's sign-in link allowance, like asking for a magic link.

export type InviteeSignInRefusal = "invalid" | Exclude<InvitationStatus, "pending"> | "signed_in" | "has_login" | "used" | "rate_limited";

export type InviteeSignIn = { ok: true; url: string } | { ok: false; reason: InviteeSignInRefusal };

/** How a signed-out visitor of a pending invitation signs in: through the link itself, or by a magic link e-mailed to the address. */
export type InviteeSignInOption = "continue" | "email_link";

export function invitationPath(token: string): string {
  return `/invitations/${encodeURIComponent(token)}`;
}

async function addressHasLogin(client: Db, email: string): Promise<boolean> {
  return (await client.user.count({ where: { email } })) > 0;
}

export async function inviteeSignInOption(client: Db, invitation: InvitationView): Promise<InviteeSignInOption> {
  const row = await client.invitation.findUnique({ where: { id: invitation.invitationId }, select: { signInUsedAt: true } });
  if (!row || row.signInUsedAt !== null || (await addressHasLogin(client, invitation.email))) return "email_link";
  return "continue";
}

export async function inviteeSignInLink(client: Db, input: { token: string; signedInUserId: string | null }): Promise<InviteeSignIn> {
  const invitation = await findInvitationByToken(client, input.token);
  if (!invitation) return { ok: false, reason: "invalid" };
  if (invitation.status !== "pending") return { ok: false, reason: invitation.status };
  if (input.signedInUserId) return { ok: false, reason: "signed_in" };
  if (await addressHasLogin(client, invitation.email)) return { ok: false, reason: "has_login" };
  if (!(await consumeSignInLinkAllowance(invitation.email))) {
    await recordSignInRefusal(invitation.email, "rate_limited");
    return { ok: false, reason: "rate_limited" };
  }
  // Claimed in one statement: of two POSTs at once, one mints.
  const claimed = await client.invitation.updateMany({
    where: { id: invitation.invitationId, signInUsedAt: null },
    data: { signInUsedAt: new Date() },
  });
  if (claimed.count === 0) return { ok: false, reason: "used" };
  return { ok: true, url: await mintSignInLink(invitation.email, invitationPath(input.token)) };
}
