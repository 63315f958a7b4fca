import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { ApiError, invalidRequest } from "../base/error-table";
import type { Invitation } from "../base/generated/prisma/client";
import { invitationStatus, type InvitationStatus } from "./invitation-status";
import { hashInvitationToken } from "./invitation-token";
import { lockTeam } from "./team-records";

// Accepting or declining an invitation link. Accepting needs the invited address signed in; it
// creates the membership once (a second accept answers the same), and marks the invitation
// accepted. Declining needs only the link, which is the credential the e-mail carried.

const closedMessages: Record<Exclude<InvitationStatus, "pending">, string> = {
  accepted: "This invitation was already accepted.",
  declined: "This invitation was declined.",
  revoked: "This invitation was revoked by an owner of the account.",
  expired: "This invitation has expired. Ask an owner of the account to send a new one.",
};

async function lockedInvitation(tx: Tx, token: string): Promise<Invitation> {
  const found =
    token.length > 0 && token.length <= 200
      ? await tx.invitation.findUnique({ where: { tokenHash: hashInvitationToken(token) }, select: { accountId: true } })
      : null;
  if (!found) throw new ApiError("ERR1006", "This invitation link is not valid. It may have been replaced by a newer one.");
  await lockTeam(tx, found.accountId);
  return tx.invitation.findUniqueOrThrow({ where: { tokenHash: hashInvitationToken(token) } });
}

export async function acceptInvitation(tx: Tx, input: { token: string; userId: string }): Promise<{ accountId: string; changed: boolean }> {
  const invitation = await lockedInvitation(tx, input.token);
  const user = await tx.user.findUniqueOrThrow({ where: { id: input.userId }, select: { id: true, email: true } });
  if (user.email !== invitation.email) {
    throw new ApiError(
      "ERR1003",
      `This invitation was sent to ${invitation.email}, but you are signed in as ${user.email}. Sign in as ${invitation.email} to accept it.`,
    );
  }
  const status = invitationStatus(invitation);
  const membership = await tx.membership.findUnique({
    where: { accountId_userId: { accountId: invitation.accountId, userId: user.id } },
    select: { id: true },
  });
  if (status === "accepted" && membership) return { accountId: invitation.accountId, changed: false };
  if (status !== "pending") throw invalidRequest(closedMessages[status]);

  // Someone already in the team (added another way) keeps their role; the invitation is used up either way.
  if (!membership) await tx.membership.create({ data: { accountId: invitation.accountId, userId: user.id, role: invitation.role } });
  await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: new Date() } });
  await recordActivity(tx, {
    accountId: invitation.accountId,
    actor: user.id,
    category: "invitation",
    action: "invitation.accepted",
    description: `${user.email} accepted the invitation`,
    metadata: { invitation_id: invitation.id, email: user.email },
  });
  if (!membership) {
    await recordActivity(tx, {
      accountId: invitation.accountId,
      actor: user.id,
      category: "membership",
      action: "membership.created",
      description: `${user.email} joined as ${invitation.role}`,
      metadata: { user_id: user.id, role: invitation.role, invitation_id: invitation.id },
    });
  }
  return { accountId: invitation.accountId, changed: true };
}

export async function declineInvitation(tx: Tx, input: { token: string; actor: string }): Promise<{ changed: boolean }> {
  const invitation = await lockedInvitation(tx, input.token);
  const status = invitationStatus(invitation);
  if (status === "declined") return { changed: false };
  if (status !== "pending") throw invalidRequest(closedMessages[status]);
  await tx.invitation.update({ where: { id: invitation.id }, data: { declinedAt: new Date() } });
  await recordActivity(tx, {
    accountId: invitation.accountId,
    actor: input.actor,
    category: "invitation",
    action: "invitation.declined",
    description: `${invitation.email} declined the invitation`,
    metadata: { invitation_id: invitation.id, email: invitation.email },
  });
  return { changed: true };
}
