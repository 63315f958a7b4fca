import { recordActivity } from "../activity/record-activity";
import type { Tx } from "../base/db";
import { queueEmail } from "../email/queue-email";
import { spendAlertFired } from "../base/events/definitions";
import { sendInTransaction } from "../base/events/send-in-transaction";
import { spendAlertEmail } from "../email/templates/spend-alert";
import { formatCredits, millisToDecimalString, type Millicredits } from "../base/money";
import { queueWebhookEvent } from "../webhooks/emit-webhook-event";
import { periodResetsAt, periodStart, type SpendPeriod } from "./periods";
import type { SpendBefore, SpendLimits } from "./spend-guard";

// Spend alerts at 50, 80 and 100 % of a key's or the account's limit, once per threshold per
// period: a `spend_alert` row per (budget, period start, threshold) is the record, unique, so a
// refund that drops the spend below a threshold and a later create that crosses it again fire
// nothing new. Run in the create's transaction, under the account lock, only when this create
// crosses a threshold; everything the alert writes (the in-app notification, the owners'
// e-mails in the outbox, the webhook event's deliveries, the activity entry) commits with the
// reservation; the e-mails are sent after commit by the spend-alert-emails function (its run is
// written in this transaction with the embedded executor), the deliveries by their own runs.

export const SPEND_ALERT_THRESHOLDS = [50, 80, 100] as const;

export const spendAlertKinds = { apikey: "apikey.spend_alert", account: "account.spend_alert" } as const;

type Budget = { scope: "apikey" | "account"; budgetId: string; apiKeyId: string | null; limitMillis: Millicredits; period: SpendPeriod };

/** The thresholds reached at `used`, when the step from `before` to `used` crossed at least one; else none. */
export function thresholdsToRecord(limitMillis: Millicredits, before: Millicredits, used: Millicredits): number[] {
  if (limitMillis <= 0) return [];
  const reached = (spend: Millicredits, percent: number) => spend * 100 >= percent * limitMillis;
  const crossed = SPEND_ALERT_THRESHOLDS.some((percent) => reached(used, percent) && !reached(before, percent));
  return crossed ? SPEND_ALERT_THRESHOLDS.filter((percent) => reached(used, percent)) : [];
}

export async function recordSpendAlerts(
  tx: Tx,
  limits: SpendLimits,
  input: SpendBefore & { costMillis: Millicredits; now: Date },
): Promise<number> {
  const budgets: Array<Budget & { before: Millicredits }> = [];
  if (limits.key)
    budgets.push({
      scope: "apikey",
      budgetId: limits.key.budgetId,
      apiKeyId: limits.key.apiKeyId,
      limitMillis: limits.key.limitMillis,
      period: limits.key.period,
      before: input.keyUsedMillis,
    });
  if (limits.account)
    budgets.push({
      scope: "account",
      budgetId: limits.accountId,
      apiKeyId: null,
      limitMillis: limits.account.limitMillis,
      period: "month",
      before: input.accountUsedMillis,
    });
  let fired = 0;
  for (const budget of budgets) {
    const used = budget.before + input.costMillis;
    const thresholds = thresholdsToRecord(budget.limitMillis, budget.before, used);
    if (thresholds.length === 0) continue;
    const rows = await tx.$queryRaw<Array<{ id: string; threshold_percent: number }>>`
      INSERT INTO spend_alert (id, account_id, scope, budget_id, api_key_id, period_start, threshold_percent, spend_used, spend_limit, created_at)
      SELECT gen_random_uuid(), ${limits.accountId}::uuid, ${budget.scope}, ${budget.budgetId}::uuid, ${budget.apiKeyId}::uuid, ${periodStart(budget.period, input.now)},
             percent, ${millisToDecimalString(used)}::numeric, ${millisToDecimalString(budget.limitMillis)}::numeric, now()
        FROM unnest(${thresholds}::int[]) AS percent
      ON CONFLICT (budget_id, period_start, threshold_percent) DO NOTHING
      RETURNING id::text, threshold_percent`;
    for (const row of rows.sort((a, b) => a.threshold_percent - b.threshold_percent)) {
      await recordSpendAlert(tx, {
        ...budget,
        accountId: limits.accountId,
        alertId: row.id,
        thresholdPercent: row.threshold_percent,
        usedMillis: used,
        now: input.now,
      });
      fired += 1;
    }
  }
  return fired;
}

type SpendAlertInput = Budget & { accountId: string; alertId: string; thresholdPercent: number; usedMillis: Millicredits; now: Date };

async function recordSpendAlert(tx: Tx, input: SpendAlertInput): Promise<void> {
  const { accountId, scope, thresholdPercent } = input;
  const kind = spendAlertKinds[scope];
  const resetsAt = periodResetsAt(input.period, input.now);
  const account = await tx.account.findUniqueOrThrow({ where: { id: accountId }, select: { name: true } });
  const key = input.apiKeyId ? await tx.apiKey.findUnique({ where: { id: input.apiKeyId }, select: { name: true, prefix: true } }) : null;
  const used = millisToDecimalString(input.usedMillis);
  const limit = millisToDecimalString(input.limitMillis);
  const what = key ? `API key "${key.name}" (${key.prefix})` : "Monthly account spend";

  const notification = await tx.notification.create({
    data: {
      accountId,
      userId: null,
      kind,
      title: `${what} reached ${thresholdPercent} % of its spend limit`,
      body: `${used} of ${limit} credits spent${resetsAt ? `; resets ${resetsAt.toISOString()}` : ""}.`,
    },
    select: { id: true },
  });
  await tx.$executeRaw`UPDATE spend_alert SET notification_id = ${notification.id}::uuid WHERE id = ${input.alertId}::uuid`;

  const owners = await tx.membership.findMany({
    where: { accountId, role: { in: ["primary_owner", "owner"] } },
    select: { user: { select: { email: true } } },
    orderBy: { createdAt: "asc" },
  });
  const message = spendAlertEmail({
    accountId,
    accountName: account.name,
    key: key ?? undefined,
    thresholdPercent,
    usedMillis: input.usedMillis,
    limitMillis: input.limitMillis,
    resetsAt,
  });
  const emailIds: string[] = [];
  for (const to of new Set(owners.map((owner) => owner.user.email))) emailIds.push((await queueEmail(tx, { ...message, to, kind })).id);

  await queueWebhookEvent(tx, {
    accountId,
    event: kind,
    eventKey: `${kind}:${input.alertId}`,
    data: {
      account_id: accountId,
      ...(input.apiKeyId ? { apikey_id: input.apiKeyId } : {}),
      threshold_percent: thresholdPercent,
      spend_used: formatCredits(input.usedMillis),
      spend_limit: formatCredits(input.limitMillis),
      spend_resets_at: resetsAt?.toISOString() ?? null,
    },
  });

  await recordActivity(tx, {
    accountId,
    actor: "system",
    category: "notification",
    action: kind,
    description: `Spend alert: ${what} reached ${thresholdPercent} % (${used} of ${limit} credits)`,
    metadata: {
      spend_alert_id: input.alertId,
      notification_id: notification.id,
      scope,
      ...(input.apiKeyId ? { apikey_id: input.apiKeyId } : {}),
      threshold_percent: thresholdPercent,
      spend_used: formatCredits(input.usedMillis),
      spend_limit: formatCredits(input.limitMillis),
      spend_resets_at: resetsAt?.toISOString() ?? null,
      email_outbox_ids: emailIds,
    },
  });

  if (emailIds.length > 0) {
    await sendInTransaction(
      tx,
      "alerts/spend.fired",
      spendAlertFired.create({ accountId, spendAlertId: input.alertId, emailIds }, { id: `spend-alert:${input.alertId}` }),
    );
  }
}
