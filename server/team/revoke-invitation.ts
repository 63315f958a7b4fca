import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { invitationStatus } from "./invitation-status";
import { findAccountInvitation, lockTeam } from "./team-records";

// Revoking an open invitation: its link shows "revoked" from now on.

export async function revokeInvitation(tx: Tx, input: { accountId: string; invitationId: string; actor: string }) {
  await lockTeam(tx, input.accountId);
  const invitation = await findAccountInvitation(tx, input.accountId, input.invitationId);
  const status = invitationStatus(invitation);
  if (status !== "pending" && status !== "expired") throw invalidRequest(`This invitation was already ${status}.`);

  await tx.invitation.update({ where: { id: invitation.id }, data: { revokedAt: new Date() } });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "invitation",
    action: "invitation.revoked",
    description: `Invitation for ${invitation.email} revoked`,
    metadata: { invitation_id: invitation.id, email: invitation.email },
  });
  return { invitationId: invitation.id };
}
