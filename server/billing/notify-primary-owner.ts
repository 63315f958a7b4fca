import type { Tx } from "../base/db";
import { queueEmail } from "../email/queue-email";
import { billingNoticeEmail } from "../email/templates/billing-notice";

// A billing notice for the account's primary owner: an in-app notification addressed to them and
// a queued e-mail, in the caller's transaction. The caller sends the e-mail after commit (the
// stripe-event function does, one step per e-mail).

export type BillingNotice = { accountId: string; kind: string; title: string; lines: string[] };

export async function notifyPrimaryOwner(tx: Tx, notice: BillingNotice): Promise<{ notificationId: string; emailId: string | null }> {
  const account = await tx.account.findUniqueOrThrow({ where: { id: notice.accountId }, select: { name: true } });
  const owner = await tx.membership.findFirst({
    where: { accountId: notice.accountId, role: "primary_owner" },
    select: { userId: true, user: { select: { email: true } } },
  });
  const notification = await tx.notification.create({
    data: {
      accountId: notice.accountId,
      userId: owner?.userId ?? null,
      kind: notice.kind,
      title: notice.title,
      body: notice.lines.join(" "),
    },
    select: { id: true },
  });
  if (!owner) return { notificationId: notification.id, emailId: null };
  const message = billingNoticeEmail({ accountId: notice.accountId, accountName: account.name, title: notice.title, lines: notice.lines });
  const email = await queueEmail(tx, { ...message, to: owner.user.email, kind: notice.kind });
  return { notificationId: notification.id, emailId: email.id };
}
