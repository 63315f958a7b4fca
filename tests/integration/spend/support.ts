import { randomUUID } from "node:crypto";
import { findModel } from "@/server/catalog";
import { generationRequestSchema } from "@/server/catalog/request-schema";
import { db } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { finishSucceeded } from "@/server/generations/run/finish-generation";
import { startAttempt } from "@/server/generations/run/run-attempt";
import { startGenerationAtOnce } from "@/server/generations/record-at-once";
import { planGeneration, startGeneration, type GenerationPlan } from "@/server/generations/start-generation";
import { decimalToMillis } from "@/server/base/money";
import { inTransaction } from "@/server/base/transaction";

// Creates as the /v1 create runs them (planGeneration outside, then the create in one statement or,
// when that wrote nothing, startGeneration in the create's transaction), without the HTTP rate limiter in front: the spend suites send bursts far past it.

// A burst queues 1,000 transactions on one account lock: on a loaded machine the last waits long.
export const createTransaction = { maxWait: 240_000, timeout: 60_000 };

export async function imagePlan(accountId: string, apiKeyId: string): Promise<GenerationPlan> {
  const model = findModel("darkroom/lumen-image")!;
  const fields = generationRequestSchema(model).parse({ generation_prompt: `spend ${randomUUID()}`, generation_provider_order: "local" });
  return planGeneration({ accountId, apiKeyId, region: "us", model, fields });
}

export type CreateOutcome = { accepted: true; generationId: string } | { accepted: false; code: string; details: Record<string, unknown> };

/** One create from a plan (a fresh generation id each time); a refusal is returned, not thrown. */
export async function create(plan: GenerationPlan, now?: Date): Promise<CreateOutcome> {
  try {
    // As the route runs it (server/edge/http/run-operation.ts): one statement first, the transaction when it wrote nothing.
    const fresh = { ...plan, generationId: randomUUID(), now };
    const created = (await startGenerationAtOnce(fresh)) ?? (await inTransaction((tx) => startGeneration(tx, fresh), createTransaction));
    return { accepted: true, generationId: created.generation_id };
  } catch (error) {
    if (error instanceof ApiError) return { accepted: false, code: error.code, details: error.details };
    throw error;
  }
}

/**
 * A burst: every plan's create at once; the concurrency cap's 429s (ERR1009, retryable) are sent
 * again, all at once, after the accepted runs of the wave ran to success (as clients honouring
 * Retry-After would find the cap free again), until every create has a final answer.
 */
export async function burst(plans: GenerationPlan[], maxWaves = 10) {
  const finals: CreateOutcome[] = [];
  let waiting = plans;
  let waves = 0;
  let concurrencyRefusals = 0;
  while (waiting.length > 0) {
    if ((waves += 1) > maxWaves) throw new Error(`${waiting.length} creates still refused with ERR1009 after ${maxWaves} waves`);
    const answers = await Promise.all(waiting.map((plan) => create(plan)));
    const retry = answers.flatMap((answer, index) => (!answer.accepted && answer.code === "ERR1009" ? [waiting[index]!] : []));
    concurrencyRefusals += retry.length;
    const settled = answers.filter((answer) => answer.accepted || answer.code !== "ERR1009");
    finals.push(...settled);
    await Promise.all(settled.map((answer) => (answer.accepted ? runToSuccess(answer.generationId) : null)));
    waiting = retry;
  }
  return { finals, waves, concurrencyRefusals };
}

/** The accepted run, to its end on the built-in provider: the reservation is charged. */
export async function runToSuccess(generationId: string) {
  const outcome = await startAttempt(generationId, "local", 1);
  if (outcome.outcome !== "succeeded") throw new Error(`expected the local run to succeed, got ${outcome.outcome}`);
  await finishSucceeded({ generationId, attempt: 1, outputKeys: outcome.outputKeys, predictTimeSeconds: outcome.predictTimeSeconds });
}

/** Spend as the ledger says it, independently of the counters: reserved less refunded, for the generations of these keys (or the whole account). */
export async function ledgerSpend(accountId: string, keyIds?: string[]): Promise<number> {
  const [row] = await db.$queryRaw<Array<{ spend: string }>>`
    SELECT coalesce(sum(CASE e.type WHEN 'reserve' THEN e.amount WHEN 'refund' THEN -e.amount ELSE 0 END), 0)::text AS spend
      FROM ledger_entry e JOIN generation g ON g.id = e.generation_id
     WHERE e.account_id = ${accountId}::uuid AND (${keyIds ?? null}::uuid[] IS NULL OR g.api_key_id = ANY(${keyIds ?? null}::uuid[]))`;
  return decimalToMillis(row?.spend ?? "0");
}

/** Samples a spend reading in a loop until stopped; returns the highest value and the count. */
export function startSampler(read: () => Promise<number>) {
  let running = true;
  let max = 0;
  let samples = 0;
  const loop = (async () => {
    while (running) {
      max = Math.max(max, await read());
      samples += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      max = Math.max(max, await read());
      return { max, samples: samples + 1 };
    },
  };
}

export function tally(outcomes: CreateOutcome[]) {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = outcome.accepted ? "accepted" : outcome.code;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
