import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountScope, OPERATOR } from "@/server/base/account-scope";
import { db } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { cancelGeneration } from "@/server/generations/cancel-generation";
import { finishFailed } from "@/server/generations/run/finish-generation";
import { deleteApiKey } from "@/server/keys/delete-key";
import { rotateApiKey } from "@/server/keys/rotate-key";
import { formatCredits } from "@/server/base/money";
import { getAccountSpend } from "@/server/spend/account-spend";
import { getKeySpend } from "@/server/spend/key-spend";
import { setAccountSpendLimit } from "@/server/spend/set-account-spend-limit";
import { setKeySpendLimit } from "@/server/spend/set-key-spend-limit";
import type { SpendPeriod } from "@/server/spend/periods";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { create, imagePlan, runToSuccess } from "./support";

// What counts against a budget: refunds (failed, canceled) give room back, a period boundary
// resets it (the create's clock is injected), a rotated key's successor spends the same budget,
// and the account's monthly limit holds over all its keys.

const { sink } = recordingEventSink();
beforeAll(() => {
  registerExecutor(sink);
  ensureAuthSecret();
});
afterAll(() => unregisterExecutor(sink));

async function keyWithLimit(generations: number, period: SpendPeriod) {
  const { accountId } = await createTestAccount({ plan: "pro" });
  const key = await createTestKey(accountId);
  const plan = await imagePlan(accountId, key.apikey_id);
  const limitMillis = generations * plan.costMillis;
  await inTransaction((tx) => setKeySpendLimit(tx, OPERATOR, { keyId: key.apikey_id, limitMillis, period, actor: "system" }));
  return { accountId, keyId: key.apikey_id, plan, limitMillis };
}

function accepted(outcome: Awaited<ReturnType<typeof create>>): string {
  if (!outcome.accepted) throw new Error(`expected an acceptance, got ${outcome.code} ${JSON.stringify(outcome.details)}`);
  return outcome.generationId;
}

describe("what a spend limit counts", () => {
  it("a failed generation's refund gives its room back", async () => {
    const { plan, keyId } = await keyWithLimit(2, "day");
    const first = accepted(await create(plan));
    accepted(await create(plan));
    expect(await create(plan)).toMatchObject({ accepted: false, code: "ERR1014" });
    await finishFailed({ generationId: first, errors: [{ provider: "local", code: "ERR4002", message: "down", failover: true }] });
    expect((await getKeySpend(db, OPERATOR, keyId)).spend_used).toBe(formatCredits(plan.costMillis));
    accepted(await create(plan));
    expect(await create(plan)).toMatchObject({ accepted: false, code: "ERR1014" });
  });

  it("a canceled generation's refund gives its room back; a charged one keeps counting", async () => {
    const { accountId, plan, keyId, limitMillis } = await keyWithLimit(2, "month");
    const first = accepted(await create(plan));
    const second = accepted(await create(plan));
    await runToSuccess(second);
    await inTransaction((tx) => cancelGeneration(tx, accountScope(accountId), { generationId: first }));
    expect((await getKeySpend(db, OPERATOR, keyId)).spend_used).toBe(formatCredits(plan.costMillis));
    accepted(await create(plan));
    const refused = await create(plan);
    expect(refused).toMatchObject({ accepted: false, code: "ERR1014" });
    expect(!refused.accepted && refused.details).toEqual({
      scope: "apikey",
      limit: formatCredits(limitMillis),
      used: formatCredits(limitMillis),
      requested: formatCredits(plan.costMillis),
      resets_at: expect.stringMatching(/^\d{4}-\d{2}-01T00:00:00\.000Z$/),
    });
  });

  it("refuses before anything is reserved: no generation row, no ledger entry", async () => {
    const { accountId, plan } = await keyWithLimit(1, "total");
    accepted(await create(plan));
    const before = await db.ledgerEntry.count({ where: { accountId } });
    const refused = await create(plan);
    expect(refused).toMatchObject({ accepted: false, code: "ERR1014", details: { scope: "apikey", resets_at: null } });
    expect(await db.ledgerEntry.count({ where: { accountId } })).toBe(before);
    expect(await db.generation.count({ where: { accountId } })).toBe(1);
  });
});

describe("periods (injected clock, UTC)", () => {
  it("a day budget resets at midnight UTC", async () => {
    const { plan, keyId } = await keyWithLimit(1, "day");
    const lateEvening = new Date("2031-03-05T23:59:59.000Z");
    accepted(await create(plan, lateEvening));
    const refused = await create(plan, lateEvening);
    expect(refused).toMatchObject({ accepted: false, code: "ERR1014", details: { resets_at: "2031-03-06T00:00:00.000Z" } });
    expect(await getKeySpend(db, OPERATOR, keyId, lateEvening)).toMatchObject({
      spend_used: formatCredits(plan.costMillis),
      spend_resets_at: "2031-03-06T00:00:00.000Z",
    });
    const nextDay = new Date("2031-03-06T00:00:00.000Z");
    expect(await getKeySpend(db, OPERATOR, keyId, nextDay)).toMatchObject({ spend_used: 0, spend_resets_at: "2031-03-07T00:00:00.000Z" });
    accepted(await create(plan, nextDay));
  });

  it("a week budget runs from Monday 00:00 UTC", async () => {
    const { plan } = await keyWithLimit(1, "week");
    // 2031-03-09 is a Sunday; the next day a Monday.
    const sunday = new Date("2031-03-09T12:00:00.000Z");
    accepted(await create(plan, sunday));
    expect(await create(plan, new Date("2031-03-09T23:00:00.000Z"))).toMatchObject({
      accepted: false,
      details: { resets_at: "2031-03-10T00:00:00.000Z" },
    });
    accepted(await create(plan, new Date("2031-03-10T00:00:01.000Z")));
  });

  it("a month budget runs over the calendar month; the account's monthly limit too", async () => {
    const { accountId, plan } = await keyWithLimit(1, "month");
    const secondKey = await createTestKey(accountId, { name: "other" });
    const otherPlan = await imagePlan(accountId, secondKey.apikey_id);
    await inTransaction((tx) => setAccountSpendLimit(tx, OPERATOR, { accountId, limitMillis: 2 * plan.costMillis, actor: "system" }));
    const endOfMonth = new Date("2031-04-30T22:00:00.000Z");
    accepted(await create(plan, endOfMonth));
    expect(await create(plan, endOfMonth)).toMatchObject({
      accepted: false,
      details: { scope: "apikey", resets_at: "2031-05-01T00:00:00.000Z" },
    });
    accepted(await create(otherPlan, endOfMonth));
    expect(await create(otherPlan, endOfMonth)).toMatchObject({
      accepted: false,
      details: { scope: "account", used: formatCredits(2 * plan.costMillis), resets_at: "2031-05-01T00:00:00.000Z" },
    });
    expect(await getAccountSpend(db, OPERATOR, accountId, endOfMonth)).toMatchObject({ spend_used: formatCredits(2 * plan.costMillis) });
    const may = new Date("2031-05-01T00:00:00.000Z");
    expect(await getAccountSpend(db, OPERATOR, accountId, may)).toMatchObject({
      spend_used: 0,
      spend_resets_at: "2031-06-01T00:00:00.000Z",
    });
    accepted(await create(plan, may));
    accepted(await create(otherPlan, may));
  });

  it("a total budget never resets", async () => {
    const { plan, keyId } = await keyWithLimit(1, "total");
    accepted(await create(plan, new Date("2031-01-01T00:00:00.000Z")));
    expect(await create(plan, new Date("2040-01-01T00:00:00.000Z"))).toMatchObject({ accepted: false, details: { resets_at: null } });
    expect(await getKeySpend(db, OPERATOR, keyId, new Date("2040-01-01T00:00:00.000Z"))).toMatchObject({
      spend_period: "total",
      spend_resets_at: null,
    });
  });
});

describe("rotation", () => {
  it("the successor keeps the limit and shares the period's spend with the old key in its grace period", async () => {
    const { accountId, plan, keyId, limitMillis } = await keyWithLimit(2, "day");
    accepted(await create(plan));
    const rotated = await inTransaction((tx) => rotateApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    const successorPlan = await imagePlan(accountId, rotated.apikey_id);
    expect(await getKeySpend(db, OPERATOR, rotated.apikey_id)).toMatchObject({
      spend_limit: formatCredits(limitMillis),
      spend_period: "day",
      spend_used: formatCredits(plan.costMillis),
    });
    accepted(await create(successorPlan));
    expect(await create(successorPlan)).toMatchObject({ accepted: false, code: "ERR1014" });
    expect(await create(plan)).toMatchObject({ accepted: false, code: "ERR1014" });
    // A limit set through either key is the lineage's.
    await inTransaction((tx) =>
      setKeySpendLimit(tx, OPERATOR, { keyId: rotated.apikey_id, limitMillis: 3 * plan.costMillis, actor: "system" }),
    );
    expect(await getKeySpend(db, OPERATOR, keyId)).toMatchObject({ spend_limit: formatCredits(3 * plan.costMillis), spend_period: "day" });
    accepted(await create(plan));
    expect(await create(successorPlan)).toMatchObject({ accepted: false, code: "ERR1014" });
  });

  it("a generation of a key deleted after its rotation gives its refund back to the lineage's budget", async () => {
    const { accountId, plan, keyId } = await keyWithLimit(1, "day");
    const inFlight = accepted(await create(plan));
    const rotated = await inTransaction((tx) => rotateApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    await inTransaction((tx) => deleteApiKey(tx, OPERATOR, { keyId, actor: "system" }));
    const successorPlan = await imagePlan(accountId, rotated.apikey_id);
    expect(await create(successorPlan)).toMatchObject({ accepted: false, code: "ERR1014" });
    await inTransaction((tx) => cancelGeneration(tx, accountScope(accountId), { generationId: inFlight }));
    expect((await getKeySpend(db, OPERATOR, rotated.apikey_id)).spend_used).toBe(0);
    accepted(await create(successorPlan));
  });

  it("clearing the limit lets creates through again", async () => {
    const { plan, keyId } = await keyWithLimit(1, "day");
    accepted(await create(plan));
    expect(await create(plan)).toMatchObject({ accepted: false });
    expect(await inTransaction((tx) => setKeySpendLimit(tx, OPERATOR, { keyId, limitMillis: null, actor: "system" }))).toMatchObject({
      spend_limit: null,
      spend_period: null,
      spend_resets_at: null,
    });
    accepted(await create(plan));
  });
});
