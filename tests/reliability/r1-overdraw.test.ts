import { describe, expect, it } from "vitest";
import { formatCredits } from "@/server/base/money";
import { planLimits } from "@/server/plans/plan-limits";
import { recordDrill, sized, timed } from "@/tests/reliability/drill";
import {
  drillPriceMillis,
  fundedEnterpriseAccount,
  generationsByStatus,
  ledgerTotals,
  moneySnapshot,
  sendCreate,
  startMoneySampler,
  tally,
  untilSettled,
  type CreateAnswer,
} from "@/tests/reliability/money";

// R1 (issue #13): no credit is double-spent. A storm of concurrent creates against Enterprise
// accounts whose balance covers exactly `covered` creates: never more than that many accepted;
// once the ERR1009 refusals (concurrency cap) are retried until none is left, exactly that many,
// and the balance ends at 0.000. A sampler reads balance and ledger sum in one snapshot all along.
//
// The Enterprise generation rate limit (200 creates a minute per account, spec "Rate limits")
// refuses most of a 1,000-create burst with ERR1005 before it reaches the money: those are
// counted apart and not retried (the drill is about the balance, not the limiter). A retry of an
// ERR1009 that meets ERR1005 waits its Retry-After, as a client would, and tries again.

const cap = planLimits.enterprise.concurrency.image;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Outcome = { first: CreateAnswer; last: CreateAnswer; retries: number; retriesRateLimited: number };

/** Retries an ERR1009 answer after its Retry-After (plus jitter) until it is accepted or refused for good. */
async function retryConcurrencyRefusal(key: string, first: CreateAnswer): Promise<Outcome> {
  let last = first;
  let retries = 0;
  let retriesRateLimited = 0;
  while (last.code === "ERR1009" || (retries > 0 && last.code === "ERR1005")) {
    await sleep(Math.max(1, last.retryAfterSeconds) * 1000 + Math.random() * 500);
    last = await sendCreate(key);
    retries += 1;
    if (last.code === "ERR1005") retriesRateLimited += 1;
  }
  return { first, last, retries, retriesRateLimited };
}

async function stormOneAccount(account: { accountId: string; key: string }, creates: number) {
  const firsts = await Promise.all(Array.from({ length: creates }, () => sendCreate(account.key)));
  const acceptedAtFirst = firsts.filter((answer) => answer.status === 202).length;
  const outcomes = await Promise.all(firsts.map((first) => retryConcurrencyRefusal(account.key, first)));
  return { account, firsts, acceptedAtFirst, outcomes };
}

async function overdrawDrill(caseName: string, accountCount: number, createsPerAccount: number, coveredPerAccount: number) {
  const priceMillis = drillPriceMillis();
  const accounts = await Promise.all(Array.from({ length: accountCount }, () => fundedEnterpriseAccount(coveredPerAccount)));
  const accountIds = accounts.map((account) => account.accountId);
  for (const snapshot of await moneySnapshot(accountIds)) expect(snapshot.balanceMillis).toBe(coveredPerAccount * priceMillis);

  const sampler = startMoneySampler(accountIds);
  const { result: storms, durationMs } = await timed(async () => {
    const results = await Promise.all(accounts.map((account) => stormOneAccount(account, createsPerAccount)));
    await untilSettled(accountIds, sized(60_000, 300_000));
    return results;
  });
  const sampled = await sampler.stop();

  const allFirsts = storms.flatMap((storm) => storm.firsts);
  const allOutcomes = storms.flatMap((storm) => storm.outcomes);
  const finals = allOutcomes.map((outcome) => outcome.last);
  // Every first answer is an acceptance or one of the three refusals; never an overdraw.
  for (const answer of allFirsts)
    expect(["202", "ERR1004", "ERR1009", "ERR1005"], JSON.stringify(answer)).toContain(answer.code ?? String(answer.status));
  for (const storm of storms) expect(storm.acceptedAtFirst).toBeLessThanOrEqual(coveredPerAccount);
  // With the ERR1009s retried away: accepted or ERR1004, and the burst's ERR1005s left as they were.
  for (const answer of finals)
    expect(["202", "ERR1004", "ERR1005"], JSON.stringify(answer)).toContain(answer.code ?? String(answer.status));
  expect(allOutcomes.filter((outcome) => outcome.last.code === "ERR1005" && outcome.retries > 0)).toEqual([]);

  const perAccount = await Promise.all(
    storms.map(async (storm) => {
      const accepted = storm.outcomes.filter((outcome) => outcome.last.status === 202);
      return {
        accepted: accepted.length,
        distinctGenerations: new Set(accepted.map((outcome) => outcome.last.generationId)).size,
        ledger: await ledgerTotals(storm.account.accountId),
        generations: await generationsByStatus(storm.account.accountId),
      };
    }),
  );
  const final = await moneySnapshot(accountIds);
  for (const [index, account] of perAccount.entries()) {
    expect(account.accepted, `account ${index}`).toBe(coveredPerAccount);
    expect(account.distinctGenerations).toBe(coveredPerAccount);
    // Every accepted create ran to success: one reservation and one charge each, no refund.
    expect(account.generations).toEqual({ succeeded: coveredPerAccount });
    expect(account.ledger).toMatchObject({
      adds: 1,
      reserves: coveredPerAccount,
      charges: coveredPerAccount,
      refunds: 0,
      reservedMillis: coveredPerAccount * priceMillis,
    });
    expect(account.ledger.lowestBalanceAfterMillis).toBeGreaterThanOrEqual(0);
  }
  for (const snapshot of final) {
    expect(snapshot.balanceMillis).toBe(0);
    expect(snapshot.ledgerSumMillis).toBe(0);
  }
  expect(sampled.mismatches).toEqual([]);
  expect(sampled.negatives).toEqual([]);
  expect(sampled.maxInFlight).toBeLessThanOrEqual(cap);

  const finalBalance = final.reduce((total, snapshot) => total + snapshot.balanceMillis, 0);
  const ledgerSum = final.reduce((total, snapshot) => total + snapshot.ledgerSumMillis, 0);
  const firstTally = tally(allFirsts);
  const finalTally = tally(finals);
  recordDrill(caseName, {
    drill: "R1",
    title: `Overdraw: ${accountCount === 1 ? "one Enterprise account" : `${accountCount} Enterprise accounts at once`}`,
    size: sized("reduced", "full"),
    durationMs,
    figures: {
      accounts: accountCount,
      "creates sent": allFirsts.length,
      "balance covers (creates per account)": coveredPerAccount,
      "price per create": formatCredits(priceMillis),
      "accepted at first answer": storms.reduce((total, storm) => total + storm.acceptedAtFirst, 0),
      "refused at first answer ERR1004": firstTally.ERR1004 ?? 0,
      "refused at first answer ERR1009": firstTally.ERR1009 ?? 0,
      "refused at first answer ERR1005 (rate limit, not retried)": firstTally.ERR1005 ?? 0,
      "ERR1009 retries sent": allOutcomes.reduce((total, outcome) => total + outcome.retries, 0),
      "retries that met ERR1005 and waited": allOutcomes.reduce((total, outcome) => total + outcome.retriesRateLimited, 0),
      "accepted in total": finalTally["202"] ?? 0,
      "refused in the end ERR1004": finalTally.ERR1004 ?? 0,
      "final balance (all accounts)": formatCredits(finalBalance).toFixed(3),
      "ledger sum (all accounts)": formatCredits(ledgerSum).toFixed(3),
      "snapshots sampled": sampled.samples,
      "balance ≠ ledger sum in a snapshot": sampled.mismatches.length,
      "negative balance in a snapshot": sampled.negatives.length,
      "max in flight per account (cap)": `${sampled.maxInFlight} (${cap})`,
    },
    checked: [
      `never more than ${coveredPerAccount} accepted per account at the first answer`,
      "every refusal is ERR1004, ERR1009 or the rate limit's ERR1005",
      `with the ERR1009s retried: exactly ${coveredPerAccount} accepted per account, every one succeeded (one reserve and one charge each, no refund)`,
      "balance 0.000 and ledger sum 0.000 at the end; no ledger entry left a negative balance",
      "balance = ledger sum and balance ≥ 0 in every snapshot taken during the storm",
      `in-flight images never above the Enterprise cap of ${cap}`,
    ],
  });
}

describe("R1 overdraw", () => {
  it(
    "one Enterprise account: a storm of creates never spends more than the balance",
    async () => {
      await overdrawDrill("one-account", 1, sized(150, 1000), sized(20, 100));
    },
    sized(120_000, 900_000),
  );

  it(
    "several Enterprise accounts at once: each stops at its own balance",
    async () => {
      await overdrawDrill("many-accounts", sized(4, 20), sized(40, 200), sized(5, 20));
    },
    sized(120_000, 900_000),
  );
});
