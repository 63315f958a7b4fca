import "server-only";
import { z } from "zod";
import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { invalidRequest } from "../base/error-table";
import { newInvitationToken } from "./invitation-token";
import { notifyInvitee } from "./notify-invitee";
import { pendingWhere } from "./invitation-status";
import { sendInvitationEmail } from "./send-invitation-email";
import { assignableRole, lockTeam } from "./team-records";

// An owner invites an e-mail address as owner or member: a pending invitation for 7 days and an
// e-mail with its link (and a notification when the address already has a login). An address already in the team, or already invited, is ERR1001. An
// expired invitation for the address is superseded by the new one.

export type InviteMemberInput = { accountId: string; email: string; role: string; actor: string };

export async function inviteMember(tx: Tx, input: InviteMemberInput) {
  const email = input.email.trim().toLowerCase();
  if (!z.email().safeParse(email).success)
    throw invalidRequest("Enter a valid e-mail address.", [{ field: "email", message: "must be an e-mail address" }]);
  const role = assignableRole(input.role);
  await lockTeam(tx, input.accountId);

  const member = await tx.membership.findFirst({ where: { accountId: input.accountId, user: { email } }, select: { id: true } });
  if (member) throw invalidRequest(`${email} is already a member of this account.`, [{ field: "email", message: "already a member" }]);
  const now = new Date();
  const pending = await tx.invitation.findFirst({
    where: { accountId: input.accountId, email, ...pendingWhere(now) },
    select: { id: true },
  });
  if (pending)
    throw invalidRequest(`${email} already has a pending invitation. Resend it from the list instead.`, [
      { field: "email", message: "already invited" },
    ]);
  await tx.invitation.updateMany({
    where: { accountId: input.accountId, email, acceptedAt: null, declinedAt: null, revokedAt: null },
    data: { revokedAt: now },
  });

  const { token, tokenHash, expiresAt } = newInvitationToken(now);
  const invitation = await tx.invitation.create({
    data: { accountId: input.accountId, email, role, tokenHash, invitedById: input.actor, expiresAt },
    select: { id: true },
  });
  await sendInvitationEmail(tx, { accountId: input.accountId, email, role, token, expiresAt, invitedById: input.actor });
  const account = await tx.account.findUniqueOrThrow({ where: { id: input.accountId }, select: { name: true } });
  await notifyInvitee(tx, { email, accountName: account.name, role });
  await recordActivity(tx, {
    accountId: input.accountId,
    actor: input.actor,
    category: "invitation",
    action: "invitation.created",
    description: `${email} invited as ${role}`,
    metadata: { invitation_id: invitation.id, email, role },
  });
  return { invitationId: invitation.id, email, role, expiresAt };
}
