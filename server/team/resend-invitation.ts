import "server-only";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { invitationStatus } from "./invitation-status";
import { newInvitationToken } from "./invitation-token";
import { sendInvitationEmail } from "./send-invitation-email";
import { findAccountInvitation, lockTeam } from "./team-records";

// A new link for an open (pending or expired) invitation: a new token and 7 more days. The old
// link stops working at once, since only the new token's hash is kept.

export async function resendInvitation(tx: Tx, input: { accountId: string; invitationId: string; actor: string }) {
  await lockTeam(tx, input.accountId);
  const invitation = await findAccountInvitation(tx, input.accountId, input.invitationId);
  const status = invitationStatus(invitation);
  if (status !== "pending" && status !== "expired")
    throw invalidRequest(`This invitation was ${status}; invite the address again instead.`);

  const { token, tokenHash, expiresAt } = newInvitationToken();
  await tx.invitation.update({ where: { id: invitation.id }, data: { tokenHash, expiresAt } });
  await sendInvitationEmail(tx, {
    accountId: input.accountId,
    email: invitation.email,
    role: invitation.role,
    token,
    expiresAt,
    invitedById: input.actor,
  });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "invitation",
    action: "invitation.resent",
    description: `Invitation for ${invitation.email} sent again`,
    metadata: { invitation_id: invitation.id, email: invitation.email },
  });
  return { invitationId: invitation.id, expiresAt };
}
