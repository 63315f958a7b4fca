import { randomUUID } from "node:crypto";
import { createAccount } from "@/server/accounts/create-account";
import { findModel } from "@/server/catalog";
import { priceGeneration } from "@/server/catalog/pricing";
import { decimalToMillis, type Millicredits } from "@/server/base/money";
import { db } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";
import { createTestKey } from "@/tests/support/fixtures";
import { createImage } from "@/tests/support/generations";
import { errorCodeOf, requestIdOf, uniqueEmail, type ApiReply } from "@/tests/support/http";
import { until } from "@/tests/support/until";

// What the money drills (R1, R2) share: Enterprise accounts funded through the real ledger to
// cover an exact number of creates, one create as a client sends it, and a sampler that reads
// every drill account's balance, ledger sum and in-flight count in one statement (one snapshot)
// for as long as the storm lasts.

/** The fast built-in model: the local provider renders it in-process, with no faults asked for. */
export const DRILL_MODEL = "darkroom/lumen-image";
export const DRILL_BODY = { generation_prompt: "a quiet darkroom, red safelight", generation_ratio: "1:1" };

/** What one create of DRILL_MODEL with DRILL_BODY costs, from the catalog's one cost function. */
export function drillPriceMillis(): Millicredits {
  const model = findModel(DRILL_MODEL);
  if (!model) throw new Error(`${DRILL_MODEL} is not in the catalog`);
  return priceGeneration(model, { count: 1 }).totalMillis;
}

/**
 * An Enterprise account whose balance covers exactly `creates` creates, and a Full Access key.
 * Its owner already had the welcome credit (granted once per user), so the balance is the
 * operator grant alone: `creates × price`, written by createAccount's addCredits.
 */
export async function fundedEnterpriseAccount(creates: number) {
  const email = uniqueEmail("drill");
  await db.user.create({ data: { email, welcomeCreditGrantedAt: new Date() } });
  const created = await inTransaction((tx) =>
    createAccount(tx, { email, plan: "enterprise", region: "us", credits: creates * drillPriceMillis() }),
  );
  const key = await createTestKey(created.account_id, { name: "drill key" });
  return { accountId: created.account_id, key: key.key };
}

export type CreateAnswer = {
  status: number;
  code: string | undefined;
  requestId: string | undefined;
  retryAfterSeconds: number;
  generationId?: string;
  replayed: boolean;
};

export function answerOf(reply: ApiReply<unknown>): CreateAnswer {
  const data = (reply.body as { data?: { generation_id?: string } } | null)?.data;
  return {
    status: reply.status,
    code: errorCodeOf(reply),
    requestId: requestIdOf(reply),
    retryAfterSeconds: Number(reply.headers.get("retry-after") ?? 0),
    generationId: data?.generation_id,
    replayed: reply.headers.get("idempotency-replayed") === "true",
  };
}

export async function sendCreate(
  key: string,
  body: Record<string, unknown> = DRILL_BODY,
  headers: Record<string, string> = {},
): Promise<CreateAnswer> {
  return answerOf(await createImage(key, body, headers, DRILL_MODEL));
}

/** `{ "202": 3, ERR1004: 7 }`: answers counted by error code, successes by status. */
export function tally(answers: CreateAnswer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const label = answer.code ?? String(answer.status);
    counts[label] = (counts[label] ?? 0) + 1;
  }
  return counts;
}

type Snapshot = { accountId: string; balanceMillis: number; ledgerSumMillis: number; inFlight: number };

/** Balance, ledger sum and in-flight images of each account, read by one statement: one snapshot. */
export async function moneySnapshot(accountIds: string[]): Promise<Snapshot[]> {
  const rows = await db.$queryRaw<Array<{ account_id: string; balance: string; ledger_sum: string; in_flight: number }>>`
    SELECT a.id::text AS account_id,
           a.credit_balance::text AS balance,
           coalesce((SELECT sum(CASE l.type WHEN 'add' THEN l.amount WHEN 'refund' THEN l.amount WHEN 'reserve' THEN -l.amount ELSE 0 END)
                       FROM ledger_entry l WHERE l.account_id = a.id), 0)::text AS ledger_sum,
           (SELECT count(*)::int FROM generation g
             WHERE g.account_id = a.id AND g.media_kind = 'image' AND g.status IN ('pending', 'processing')) AS in_flight
      FROM account a
     WHERE a.id = ANY(${accountIds}::uuid[])`;
  return rows.map((row) => ({
    accountId: row.account_id,
    balanceMillis: decimalToMillis(row.balance),
    ledgerSumMillis: decimalToMillis(row.ledger_sum),
    inFlight: row.in_flight,
  }));
}

export type SamplerReport = { samples: number; mismatches: string[]; negatives: string[]; maxInFlight: number };

/**
 * Reads moneySnapshot back to back until stopped: every read must show balance = ledger sum and
 * a balance of zero or more. Returns what it saw (the drill asserts on it).
 */
export function startMoneySampler(accountIds: string[]) {
  const report: SamplerReport = { samples: 0, mismatches: [], negatives: [], maxInFlight: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const snapshot of await moneySnapshot(accountIds)) {
        if (snapshot.balanceMillis !== snapshot.ledgerSumMillis)
          report.mismatches.push(`${snapshot.accountId}: balance ${snapshot.balanceMillis} vs ledger ${snapshot.ledgerSumMillis}`);
        if (snapshot.balanceMillis < 0) report.negatives.push(`${snapshot.accountId}: ${snapshot.balanceMillis}`);
        report.maxInFlight = Math.max(report.maxInFlight, snapshot.inFlight);
      }
      report.samples += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    async stop(): Promise<SamplerReport> {
      running = false;
      await loop;
      // One last read once everything has settled.
      for (const snapshot of await moneySnapshot(accountIds)) {
        if (snapshot.balanceMillis !== snapshot.ledgerSumMillis)
          report.mismatches.push(`${snapshot.accountId}: balance ${snapshot.balanceMillis} vs ledger ${snapshot.ledgerSumMillis}`);
        if (snapshot.balanceMillis < 0) report.negatives.push(`${snapshot.accountId}: ${snapshot.balanceMillis}`);
      }
      report.samples += 1;
      return report;
    },
  };
}

/** The account's ledger by type (count and millicredits) and the lowest balance_after it ever wrote. */
export async function ledgerTotals(accountId: string) {
  const rows = await db.$queryRaw<Array<{ type: string; entries: number; total: string; lowest: string }>>`
    SELECT type::text AS type, count(*)::int AS entries, sum(amount)::text AS total, min(balance_after)::text AS lowest
      FROM ledger_entry WHERE account_id = ${accountId}::uuid GROUP BY type`;
  const byType = (type: string) => rows.find((row) => row.type === type);
  const lowest = rows.length ? Math.min(...rows.map((row) => decimalToMillis(row.lowest))) : 0;
  return {
    reserves: byType("reserve")?.entries ?? 0,
    charges: byType("charge")?.entries ?? 0,
    refunds: byType("refund")?.entries ?? 0,
    adds: byType("add")?.entries ?? 0,
    reservedMillis: byType("reserve") ? decimalToMillis(byType("reserve")!.total) : 0,
    lowestBalanceAfterMillis: lowest,
  };
}

/** Waits until none of the accounts has a generation in flight (the run settles every one). */
export async function untilSettled(accountIds: string[], timeoutMs: number) {
  await until(
    async () => (await moneySnapshot(accountIds)).every((snapshot) => snapshot.inFlight === 0),
    `no generation of ${accountIds.length} account(s) in flight`,
    { timeoutMs, everyMs: 250 },
  );
}

export async function generationsByStatus(accountId: string): Promise<Record<string, number>> {
  const rows = await db.generation.groupBy({ by: ["status"], where: { accountId }, _count: { _all: true } });
  return Object.fromEntries(rows.map((row) => [row.status, row._count._all]));
}

export const newIdempotencyKey = () => `drill-${randomUUID()}`;
