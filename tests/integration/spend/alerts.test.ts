import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountScope, OPERATOR } from "@/server/base/account-scope";
import { db } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { cancelGeneration } from "@/server/generations/cancel-generation";
import { formatCredits } from "@/server/base/money";
import { setAccountSpendLimit } from "@/server/spend/set-account-spend-limit";
import { setKeySpendLimit } from "@/server/spend/set-key-spend-limit";
import { thresholdsToRecord } from "@/server/spend/record-spend-alerts";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { create, imagePlan } from "./support";

// Spend alerts at 50, 80 and 100 %: each threshold once per period, on every channel (in-app
// notification, owners' e-mail, signed webhook event, activity entry), recorded by the create that
// crossed it; again in the next period.

const { sink, sent } = recordingEventSink();
beforeAll(() => {
  registerExecutor(sink);
  ensureAuthSecret();
});
afterAll(() => unregisterExecutor(sink));

async function alertsOf(accountId: string, kind: string) {
  const [notifications, emails, deliveries, activity] = await Promise.all([
    db.notification.findMany({ where: { accountId, kind }, orderBy: { createdAt: "asc" }, select: { title: true } }),
    db.emailOutbox.findMany({ where: { kind }, select: { id: true, to: true } }),
    db.webhookDelivery.findMany({ where: { accountId, event: kind }, orderBy: { createdAt: "asc" }, select: { payload: true } }),
    db.activityEvent.findMany({ where: { accountId, action: kind }, orderBy: { createdAt: "asc" }, select: { metadata: true } }),
  ]);
  return {
    notifications,
    emails,
    deliveries: deliveries.map((row) => (row.payload as { webhook_data: Record<string, unknown> }).webhook_data),
    activity,
  };
}

const thresholdsIn = (deliveries: Array<Record<string, unknown>>) => deliveries.map((data) => data.threshold_percent);

async function accountWithEndpoint() {
  const account = await createTestAccount({ plan: "pro" });
  await inTransaction((tx) =>
    createWebhookEndpoint(tx, {
      accountId: account.accountId,
      url: "http://127.0.0.1:9/hooks",
      events: ["apikey.spend_alert", "account.spend_alert"],
      actor: "system",
    }),
  );
  return account;
}

describe("spend alerts", () => {
  it("thresholds: a step that crosses one records every threshold reached; a step that crosses none, nothing", () => {
    expect(thresholdsToRecord(1000, 0, 499)).toEqual([]);
    expect(thresholdsToRecord(1000, 0, 500)).toEqual([50]);
    expect(thresholdsToRecord(1000, 700, 850)).toEqual([50, 80]);
    expect(thresholdsToRecord(1000, 850, 900)).toEqual([]);
    expect(thresholdsToRecord(1000, 900, 1000)).toEqual([50, 80, 100]);
    expect(thresholdsToRecord(0, 0, 0)).toEqual([]);
  });

  it("a key's budget: 50, 80 and 100 % once each on every channel, not again after a refund, again next period", async () => {
    const { accountId, email } = await accountWithEndpoint();
    const key = await createTestKey(accountId);
    const plan = await imagePlan(accountId, key.apikey_id);
    const limitMillis = 10 * plan.costMillis;
    await inTransaction((tx) => setKeySpendLimit(tx, OPERATOR, { keyId: key.apikey_id, limitMillis, period: "day", actor: "system" }));
    const day = new Date("2032-06-15T10:00:00.000Z");
    const ids: string[] = [];
    const createAt = async (now: Date) => {
      const outcome = await create(plan, now);
      if (!outcome.accepted) throw new Error(`refused: ${outcome.code}`);
      ids.push(outcome.generationId);
    };

    for (let index = 0; index < 4; index += 1) await createAt(day);
    expect((await alertsOf(accountId, "apikey.spend_alert")).deliveries).toEqual([]);
    await createAt(day); // 5 of 10: 50 %
    let alerts = await alertsOf(accountId, "apikey.spend_alert");
    expect(thresholdsIn(alerts.deliveries)).toEqual([50]);
    expect(alerts.deliveries[0]).toEqual({
      account_id: accountId,
      apikey_id: key.apikey_id,
      threshold_percent: 50,
      spend_used: formatCredits(5 * plan.costMillis),
      spend_limit: formatCredits(limitMillis),
      spend_resets_at: "2032-06-16T00:00:00.000Z",
    });
    expect(alerts.notifications).toHaveLength(1);
    expect(alerts.emails.map((row) => row.to)).toContain(email);
    expect(alerts.activity).toHaveLength(1);
    expect(sent.filter((event) => event.name === "alerts/spend.fired" && event.data.accountId === accountId)).toHaveLength(1);

    for (let index = 0; index < 3; index += 1) await createAt(day); // 8 of 10: 80 %
    expect(thresholdsIn((await alertsOf(accountId, "apikey.spend_alert")).deliveries)).toEqual([50, 80]);

    // A refund drops the spend under 80 %; crossing it again in the same period fires nothing.
    await inTransaction((tx) => cancelGeneration(tx, accountScope(accountId), { generationId: ids.at(-1)! }));
    await createAt(day);
    expect(thresholdsIn((await alertsOf(accountId, "apikey.spend_alert")).deliveries)).toEqual([50, 80]);

    await createAt(day);
    await createAt(day); // 10 of 10: 100 %
    alerts = await alertsOf(accountId, "apikey.spend_alert");
    expect(thresholdsIn(alerts.deliveries)).toEqual([50, 80, 100]);
    expect(alerts.notifications).toHaveLength(3);
    expect(alerts.activity).toHaveLength(3);
    expect(await create(plan, day)).toMatchObject({ accepted: false, code: "ERR1014" });

    // The next day is a new period: 50 % fires again.
    const nextDay = new Date("2032-06-16T09:00:00.000Z");
    for (let index = 0; index < 5; index += 1) await createAt(nextDay);
    alerts = await alertsOf(accountId, "apikey.spend_alert");
    expect(thresholdsIn(alerts.deliveries)).toEqual([50, 80, 100, 50]);
    expect(alerts.deliveries.at(-1)).toMatchObject({ spend_resets_at: "2032-06-17T00:00:00.000Z" });
  });

  it("the account's monthly limit: account.spend_alert without apikey_id", async () => {
    const { accountId } = await accountWithEndpoint();
    const key = await createTestKey(accountId);
    const plan = await imagePlan(accountId, key.apikey_id);
    await inTransaction((tx) => setAccountSpendLimit(tx, OPERATOR, { accountId, limitMillis: 2 * plan.costMillis, actor: "system" }));
    const month = new Date("2032-07-10T00:00:00.000Z");
    expect(await create(plan, month)).toMatchObject({ accepted: true });
    expect(await create(plan, month)).toMatchObject({ accepted: true });
    const alerts = await alertsOf(accountId, "account.spend_alert");
    expect(thresholdsIn(alerts.deliveries)).toEqual([50, 80, 100]);
    expect(alerts.deliveries[2]).toEqual({
      account_id: accountId,
      threshold_percent: 100,
      spend_used: formatCredits(2 * plan.costMillis),
      spend_limit: formatCredits(2 * plan.costMillis),
      spend_resets_at: "2032-08-01T00:00:00.000Z",
    });
    expect((await alertsOf(accountId, "apikey.spend_alert")).deliveries).toEqual([]);
  });

  it("reaches only endpoints that opted in: one created with the default events gets none", async () => {
    const { accountId } = await accountWithEndpoint();
    const byDefault = await inTransaction((tx) =>
      createWebhookEndpoint(tx, { accountId, url: "http://127.0.0.1:9/default", actor: "system" }),
    );
    const key = await createTestKey(accountId);
    const plan = await imagePlan(accountId, key.apikey_id);
    await inTransaction((tx) => setAccountSpendLimit(tx, OPERATOR, { accountId, limitMillis: plan.costMillis, actor: "system" }));
    expect(await create(plan, new Date("2032-09-10T00:00:00.000Z"))).toMatchObject({ accepted: true });
    const deliveries = await db.webhookDelivery.findMany({
      where: { accountId, event: "account.spend_alert" },
      select: { endpointId: true },
    });
    expect(deliveries).toHaveLength(3);
    expect(deliveries.map((row) => row.endpointId)).not.toContain(byDefault.webhook_id);
  });
});
