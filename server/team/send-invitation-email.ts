import "server-only";
import type { Tx } from "../base/db";
import { queueEmail } from "../email/queue-email";
import { SEND_EMAIL_TRANSACTION, sendEmail } from "../email/send-email";
import { invitationEmail } from "../email/templates/invitation";
import type { MemberRole } from "../base/generated/prisma/enums";
import { afterCommit, inTransaction } from "../base/transaction";

// Queues the invitation e-mail in the caller's transaction and sends it once that commits; a
// rollback drops both. Returns the outbox row's id.

export type InvitationEmailInput = {
  accountId: string;
  email: string;
  role: MemberRole;
  token: string;
  expiresAt: Date;
  invitedById: string | null;
};

export async function sendInvitationEmail(tx: Tx, input: InvitationEmailInput): Promise<string> {
  const account = await tx.account.findUniqueOrThrow({ where: { id: input.accountId }, select: { name: true } });
  const inviter = input.invitedById
    ? await tx.user.findUnique({ where: { id: input.invitedById }, select: { name: true, email: true } })
    : null;
  const message = invitationEmail({
    token: input.token,
    accountName: account.name,
    role: input.role,
    invitedBy: inviter ? (inviter.name ?? inviter.email) : null,
    expiresAt: input.expiresAt,
  });
  const { id } = await queueEmail(tx, { to: input.email, ...message, kind: "invitation.created" });
  afterCommit(tx, "email/invitation", () => inTransaction((sendTx) => sendEmail(sendTx, id), SEND_EMAIL_TRANSACTION));
  return id;
}
