import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { addCredits } from "@/server/credits/add-credits";
import { db } from "@/server/base/db";
import { registerExecutor, unregisterExecutor } from "@/server/base/events/executor-registry";
import { formatCredits } from "@/server/base/money";
import { getAccountSpend } from "@/server/spend/account-spend";
import { getKeySpend } from "@/server/spend/key-spend";
import { periodFirstDay } from "@/server/spend/periods";
import { readSpend } from "@/server/spend/read-spend";
import { setAccountSpendLimit } from "@/server/spend/set-account-spend-limit";
import { setKeySpendLimit } from "@/server/spend/set-key-spend-limit";
import { ensureAuthSecret } from "@/server/start/secrets";
import { inTransaction } from "@/server/base/transaction";
import { recordingEventSink } from "@/tests/support/event-sink";
import { createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { burst, imagePlan, ledgerSpend, startSampler, tally } from "./support";

// Issue #30's proof: 1,000 concurrent creates against a budget that pays for exactly 100, on one
// key and then on the account across 10 keys, with a balance for far more. The Enterprise in-flight
// cap (60 images) refuses part of the first wave with ERR1009 (429, retryable): the accepted runs
// are driven to success and the 429s sent again at once, until every create has a final answer.
// A sampler reads the spend (counters and ledger) all along; afterwards counters, ledger and
// balance must agree. The HTTP rate limiter is not in front (the spend is what is under test).

const { sink } = recordingEventSink();
beforeAll(() => {
  registerExecutor(sink);
  ensureAuthSecret();
});
afterAll(() => unregisterExecutor(sink));

const BURST = 1000;
const PAID = 100;

async function fundedEnterprise(credits: number) {
  const account = await createTestAccount({ plan: "enterprise" });
  await inTransaction((tx) =>
    addCredits(tx, {
      accountId: account.accountId,
      amountMillis: credits * 1000,
      sourceKey: `spend-burst:${account.accountId}`,
      description: "burst funds",
      actor: "system",
    }),
  );
  return account;
}

describe("spend limits under a burst", () => {
  it("1,000 concurrent creates on one key whose limit pays for 100: exactly 100 accepted, 900 ERR1014, never over the limit", async () => {
    const { accountId } = await fundedEnterprise(100_000);
    const key = await createTestKey(accountId);
    const plan = await imagePlan(accountId, key.apikey_id);
    const limitMillis = PAID * plan.costMillis;
    await inTransaction((tx) => setKeySpendLimit(tx, OPERATOR, { keyId: key.apikey_id, limitMillis, period: "day", actor: "system" }));
    const balanceBefore = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { creditBalance: true } });

    const sampler = startSampler(async () =>
      Math.max(await readSpend(db, key.apikey_id, periodFirstDay("day", new Date())), await ledgerSpend(accountId, [key.apikey_id])),
    );
    const started = Date.now();
    const { finals: outcomes, waves, concurrencyRefusals } = await burst(Array.from({ length: BURST }, () => plan));
    const durationMs = Date.now() - started;
    const sampled = await sampler.stop();

    const counts = tally(outcomes);
    expect(counts).toEqual({ accepted: PAID, ERR1014: BURST - PAID });
    for (const outcome of outcomes) {
      if (!outcome.accepted)
        expect(outcome.details).toMatchObject({
          scope: "apikey",
          limit: formatCredits(limitMillis),
          requested: formatCredits(plan.costMillis),
        });
    }
    expect(sampled.max).toBeLessThanOrEqual(limitMillis);
    expect(await ledgerSpend(accountId, [key.apikey_id])).toBe(limitMillis);
    const spend = await getKeySpend(db, OPERATOR, key.apikey_id);
    expect(spend).toMatchObject({ spend_limit: formatCredits(limitMillis), spend_period: "day", spend_used: formatCredits(limitMillis) });
    const entries = await db.ledgerEntry.groupBy({ by: ["type"], where: { accountId, generationId: { not: null } }, _count: true });
    expect(Object.fromEntries(entries.map((entry) => [entry.type, entry._count]))).toEqual({ reserve: PAID, charge: PAID });
    const balanceAfter = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { creditBalance: true } });
    expect(Math.round((Number(balanceBefore.creditBalance) - Number(balanceAfter.creditBalance)) * 1000)).toBe(limitMillis);
    expect(await db.generation.count({ where: { accountId } })).toBe(PAID);
    console.log(
      `spend burst (key): ${BURST} creates in ${durationMs} ms, accepted ${counts.accepted}, ERR1014 ${counts.ERR1014}, ERR1009 answers retried ${concurrencyRefusals} in ${waves} waves, max sampled spend ${formatCredits(sampled.max)} of ${formatCredits(limitMillis)} in ${sampled.samples} samples`,
    );
  }, 300_000);

  it("1,000 concurrent creates over 10 keys of an account whose monthly limit pays for 100: exactly 100 accepted, the rest ERR1014 (account)", async () => {
    const { accountId } = await fundedEnterprise(100_000);
    const keys = await Promise.all(Array.from({ length: 10 }, (_, index) => createTestKey(accountId, { name: `burst ${index}` })));
    const plans = await Promise.all(keys.map((key) => imagePlan(accountId, key.apikey_id)));
    const price = plans[0]!.costMillis;
    const limitMillis = PAID * price;
    await inTransaction((tx) => setAccountSpendLimit(tx, OPERATOR, { accountId, limitMillis, actor: "system" }));

    const sampler = startSampler(async () =>
      Math.max(await readSpend(db, accountId, periodFirstDay("month", new Date())), await ledgerSpend(accountId)),
    );
    const started = Date.now();
    const {
      finals: outcomes,
      waves,
      concurrencyRefusals,
    } = await burst(Array.from({ length: BURST }, (_, index) => plans[index % plans.length]!));
    const durationMs = Date.now() - started;
    const sampled = await sampler.stop();

    const counts = tally(outcomes);
    expect(counts).toEqual({ accepted: PAID, ERR1014: BURST - PAID });
    for (const outcome of outcomes)
      if (!outcome.accepted) expect(outcome.details).toMatchObject({ scope: "account", limit: formatCredits(limitMillis) });
    expect(sampled.max).toBeLessThanOrEqual(limitMillis);
    expect(await ledgerSpend(accountId)).toBe(limitMillis);
    expect(await getAccountSpend(db, OPERATOR, accountId)).toMatchObject({
      monthly_spend_limit: formatCredits(limitMillis),
      spend_used: formatCredits(limitMillis),
    });
    // Each key's own counter adds up to the account's.
    const perKey = await Promise.all(keys.map((key) => getKeySpend(db, OPERATOR, key.apikey_id)));
    expect(Math.round(perKey.reduce((total, spend) => total + spend.spend_used * 1000, 0))).toBe(limitMillis);
    console.log(
      `spend burst (account, 10 keys): ${BURST} creates in ${durationMs} ms, accepted ${counts.accepted}, ERR1014 ${counts.ERR1014}, ERR1009 answers retried ${concurrencyRefusals} in ${waves} waves, max sampled spend ${formatCredits(sampled.max)} of ${formatCredits(limitMillis)} in ${sampled.samples} samples`,
    );
  }, 300_000);
});
