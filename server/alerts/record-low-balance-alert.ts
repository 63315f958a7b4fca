import { recordActivity } from "../activity/record-activity";
import { formatCredits, millisToDecimalString, type Millicredits } from "../base/money";
import type { Tx } from "../base/db";
import { queueEmail } from "../email/queue-email";
import { lowBalanceEmail } from "../email/templates/low-balance";
import { afterCommit } from "../base/transaction";
import { sendLowBalanceFired } from "./send-low-balance-fired";

// Everything a fired alert writes, inside the ledger movement's transaction: the in-app
// notification (account-wide: userId null, every member's bell shows it), one queued e-mail per
// owner, and the `alert.fired` activity event that is the alert's record (what crossed, at which
// balance, which e-mails). If the movement rolls back, none of it ever existed.
//
// The side effects outside the database (Resend, the `credits.low_balance` webhook event) happen
// after commit, in the `alerts-dispatch` Inngest function. Pending-dispatch marker: an alert is
// dispatched once an `alert.dispatched` activity event names its notification id; until then the
// one-minute sweep (alerts-dispatch-sweep) picks it up, so a lost event or a crash loses nothing.
// (No schema change: notification + activity rows carry it; queued outbox rows are the e-mails.)

export const LOW_BALANCE_KIND = "credits.low_balance";

export type CrossedThreshold = { thresholdMillis: Millicredits; balanceAtMillis: Millicredits };

export type FiredAlert = {
  notificationId: string;
  accountId: string;
  balanceMillis: Millicredits;
  /** Highest first. */
  thresholdsCrossed: CrossedThreshold[];
  emailIds: string[];
};

export type RecordAlertInput = {
  accountId: string;
  balanceBeforeMillis: Millicredits;
  balanceAfterMillis: Millicredits;
  thresholdsCrossed: CrossedThreshold[];
  ledgerEntryId?: string;
};

export async function recordLowBalanceAlert(tx: Tx, input: RecordAlertInput): Promise<FiredAlert> {
  const { accountId, balanceAfterMillis } = input;
  const crossed = [...input.thresholdsCrossed].sort((a, b) => b.thresholdMillis - a.thresholdMillis);
  const lowest = crossed.at(-1);
  if (!lowest) throw new Error("a low-balance alert needs at least one crossed threshold");

  const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } });
  const owners = await tx.membership.findMany({
    where: { accountId, role: { in: ["primary_owner", "owner"] } },
    select: { user: { select: { email: true } } },
    orderBy: { createdAt: "asc" },
  });
  const recipients = [...new Set(owners.map((owner) => owner.user.email))];

  const balance = millisToDecimalString(balanceAfterMillis);
  const list = crossed.map((entry) => millisToDecimalString(entry.thresholdMillis)).join(", ");
  const notification = await tx.notification.create({
    data: {
      accountId,
      userId: null,
      kind: LOW_BALANCE_KIND,
      title: `Low balance: below ${millisToDecimalString(lowest.thresholdMillis)} credits`,
      body: `The balance is ${balance} credits. ${crossed.length === 1 ? "Alert crossed" : "Alerts crossed"}: ${list}.`,
    },
    select: { id: true },
  });

  const message = lowBalanceEmail({ accountId, accountName: account.name, balanceMillis: balanceAfterMillis, thresholdsCrossed: crossed });
  const emailIds: string[] = [];
  for (const to of recipients) emailIds.push((await queueEmail(tx, { ...message, to, kind: LOW_BALANCE_KIND })).id);

  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "notification",
    action: "alert.fired",
    description: `Low-balance alert: balance ${balance} crossed ${list}`,
    metadata: {
      notification_id: notification.id,
      balance_before: formatCredits(input.balanceBeforeMillis),
      balance_after: formatCredits(balanceAfterMillis),
      thresholds_crossed: crossed.map((entry) => ({
        threshold: formatCredits(entry.thresholdMillis),
        balance_at: formatCredits(entry.balanceAtMillis),
      })),
      email_outbox_ids: emailIds,
      ...(input.ledgerEntryId ? { ledger_entry_id: input.ledgerEntryId } : {}),
    },
  });

  // Best effort: if this process dies before sending, the one-minute sweep dispatches the alert.
  afterCommit(tx, "alerts/low-balance.fired", () => sendLowBalanceFired({ accountId, notificationId: notification.id }));
  return { notificationId: notification.id, accountId, balanceMillis: balanceAfterMillis, thresholdsCrossed: crossed, emailIds };
}
