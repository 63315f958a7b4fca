import "server-only";
import { recordSignInRefusal } from "../auth/auth-activity";
import { mintSignInLink } from "../auth/mint-sign-in-link";
import { consumeSignInLinkAllowance } from "../auth/send-sign-in-link";
import type { Db } from "../db";
import { findInvitationByToken } from "./find-invitation";
import type { InvitationStatus } from "./invitation-status";

// "Continue as <invited address>" on an invitation link. The invitation e-mail proved control of
// that mailbox as a magic link does, so a signed-out visitor of a pending invitation gets a
// one-time sign-in link for the invited address (never any other), which brings them back to the
// invitation signed in, a new user signed up. Unknown, replaced and closed links get none; someone
// signed in keeps their session (the page tells a different address what to do). Minting counts
// against the address's sign-in link allowance, like asking for a magic link.

export type InviteeSignInRefusal = "invalid" | Exclude<InvitationStatus, "pending"> | "signed_in" | "rate_limited";

export type InviteeSignIn = { ok: true; url: string } | { ok: false; reason: InviteeSignInRefusal };

export function invitationPath(token: string): string {
  return `/invitations/${encodeURIComponent(token)}`;
}

export async function inviteeSignInLink(client: Db, input: { token: string; signedInUserId: string | null }): Promise<InviteeSignIn> {
  const invitation = await findInvitationByToken(client, input.token);
  if (!invitation) return { ok: false, reason: "invalid" };
  if (invitation.status !== "pending") return { ok: false, reason: invitation.status };
  if (input.signedInUserId) return { ok: false, reason: "signed_in" };
  if (!(await consumeSignInLinkAllowance(invitation.email))) {
    await recordSignInRefusal(invitation.email, "rate_limited");
    return { ok: false, reason: "rate_limited" };
  }
  return { ok: true, url: await mintSignInLink(invitation.email, invitationPath(input.token)) };
}
