import "server-only";
import { z } from "zod";
import { recordActivity } from "../activity/record-activity";
import { formatCredits } from "../base/money";
import { getBalance } from "../ledger/get-balance";
import { db, type Db, type Tx } from "../base/db";
import { SEND_EMAIL_TRANSACTION, sendEmail, throwIfDeferred, type SendEmailResult } from "../email/send-email";
import { inTransaction } from "../base/transaction";
import { queueWebhookEvent } from "../webhooks/emit-webhook-event";
import { LOW_BALANCE_KIND } from "./record-low-balance-alert";
import { isGuid } from "../base/guid";

// After commit, an alert's side effects on its other channels (the in-app notification is already
// written): the `credits.low_balance` webhook event and the owners' e-mails, then the
// `alert.dispatched` marker. Every part is idempotent — the webhook event by its key
// `credits.low_balance:<notification id>`, each e-mail by its outbox row — so the event-driven
// run and the sweep may overlap or repeat without sending anything twice. Each part runs in its
// caller's transaction: the alerts-dispatch function's steps, or dispatchLowBalanceAlert.

/** The alert as recorded in its `alert.fired` activity event; JSON-safe for Inngest steps. */
export type LowBalanceAlert = {
  notificationId: string;
  accountId: string;
  thresholdsCrossed: Array<{ threshold: number; balance_at: number }>;
  emailIds: string[];
};

const firedMetadata = z.object({
  notification_id: z.string(),
  thresholds_crossed: z.array(z.object({ threshold: z.number(), balance_at: z.number() })),
  email_outbox_ids: z.array(z.string()),
});

// Both rows of an alert are written by one transaction; the activity lookup is narrowed to the
// account's index around the notification's time (generously: clocks of app and database differ).
const LOOKUP_SLACK_MS = 10 * 60_000;

async function findMarker(
  client: Db,
  action: "alert.fired" | "alert.dispatched",
  notification: { id: string; accountId: string; createdAt: Date },
) {
  return client.activityEvent.findFirst({
    where: {
      accountId: notification.accountId,
      action,
      createdAt: { gte: new Date(notification.createdAt.getTime() - LOOKUP_SLACK_MS) },
      metadata: { path: ["notification_id"], equals: notification.id },
    },
    select: { id: true, metadata: true },
  });
}

/** null when no such committed alert exists. */
export async function loadLowBalanceAlert(notificationId: string): Promise<{ alert: LowBalanceAlert; dispatched: boolean } | null> {
  if (!isGuid(notificationId)) return null;
  const notification = await db.notification.findUnique({
    where: { id: notificationId },
    select: { id: true, accountId: true, kind: true, createdAt: true },
  });
  if (!notification || notification.kind !== LOW_BALANCE_KIND) return null;
  const fired = await findMarker(db, "alert.fired", notification);
  const metadata = firedMetadata.safeParse(fired?.metadata);
  if (!metadata.success) return null;
  const dispatched = (await findMarker(db, "alert.dispatched", notification)) !== null;
  return {
    alert: {
      notificationId,
      accountId: notification.accountId,
      thresholdsCrossed: metadata.data.thresholds_crossed,
      emailIds: metadata.data.email_outbox_ids,
    },
    dispatched,
  };
}

/**
 * The `credits.low_balance` event to the account's subscribed endpoints (a dead letter for a
 * disabled one). `current_balance` is read when the event is emitted; each crossed threshold
 * carries the balance at the moment it was crossed.
 */
export async function emitLowBalanceWebhook(tx: Tx, alert: LowBalanceAlert): Promise<void> {
  const currentBalance = await getBalance(tx, alert.accountId);
  await queueWebhookEvent(tx, {
    accountId: alert.accountId,
    event: "credits.low_balance",
    eventKey: `credits.low_balance:${alert.notificationId}`,
    data: { account_id: alert.accountId, current_balance: formatCredits(currentBalance), thresholds_crossed: alert.thresholdsCrossed },
  });
}

/** Writes the `alert.dispatched` marker once; false when it already existed. */
export async function markLowBalanceAlertDispatched(tx: Tx, alert: LowBalanceAlert): Promise<boolean> {
  // Two dispatchers finishing together meet on the notification row.
  const [notification] = await tx.$queryRaw<Array<{ created_at: Date }>>`
    SELECT created_at FROM notification WHERE id = ${alert.notificationId}::uuid FOR UPDATE`;
  if (!notification) return false;
  if (
    await findMarker(tx, "alert.dispatched", { id: alert.notificationId, accountId: alert.accountId, createdAt: notification.created_at })
  )
    return false;
  const emails = await tx.emailOutbox.findMany({ where: { id: { in: alert.emailIds } }, select: { status: true } });
  const queued = emails.filter((email) => email.status === "queued").length;
  if (queued > 0) throw new Error(`low-balance alert ${alert.notificationId}: ${queued} e-mail(s) still queued`);
  await recordActivity(tx, {
    accountId: alert.accountId,
    actor: "system",
    category: "notification",
    action: "alert.dispatched",
    description: `Low-balance alert sent: ${emails.filter((email) => email.status === "sent").length} e-mail(s), webhook event credits.low_balance`,
    metadata: {
      notification_id: alert.notificationId,
      emails_sent: emails.filter((email) => email.status === "sent").length,
      emails_failed: emails.filter((email) => email.status === "failed").length,
    },
  });
  return true;
}

export type DispatchResult =
  { status: "dispatched"; emails: SendEmailResult[] } | { status: "skipped"; reason: "not_found" | "already_dispatched" };

/**
 * The whole dispatch in one call (the sweep, tests), each part in a transaction of its own as the
 * Inngest function's steps: one e-mail's Resend call never holds the others' rows.
 */
export async function dispatchLowBalanceAlert(notificationId: string): Promise<DispatchResult> {
  const loaded = await loadLowBalanceAlert(notificationId);
  if (!loaded) return { status: "skipped", reason: "not_found" };
  if (loaded.dispatched) return { status: "skipped", reason: "already_dispatched" };
  const { alert } = loaded;
  await inTransaction((tx) => emitLowBalanceWebhook(tx, alert));
  const emails: SendEmailResult[] = [];
  for (const emailId of alert.emailIds)
    emails.push(throwIfDeferred(await inTransaction((tx) => sendEmail(tx, emailId), SEND_EMAIL_TRANSACTION)));
  await inTransaction((tx) => markLowBalanceAlertDispatched(tx, alert));
  return { status: "dispatched", emails };
}
