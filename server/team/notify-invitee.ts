import "server-only";
import type { Tx } from "../base/db";
import type { MemberRole } from "../base/generated/prisma/enums";

// An invitee who already has a Darkroom login also sees the invitation in the bell of the account
// they land in (their oldest membership), addressed to them alone. The link itself stays in the
// e-mail: a notification never carries the token.

export async function notifyInvitee(tx: Tx, input: { email: string; accountName: string; role: MemberRole }): Promise<string | null> {
  const home = await tx.membership.findFirst({
    where: { user: { email: input.email } },
    orderBy: { createdAt: "asc" },
    select: { accountId: true, userId: true },
  });
  if (!home) return null;
  const notification = await tx.notification.create({
    data: {
      accountId: home.accountId,
      userId: home.userId,
      kind: "invitation.created",
      title: `Invitation to join ${input.accountName}`,
      body: `You are invited to join ${input.accountName} as ${input.role}. Open the link in the invitation e-mail to accept or decline.`,
    },
    select: { id: true },
  });
  return notification.id;
}
