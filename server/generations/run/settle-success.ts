import "server-only";
import { randomUUID } from "node:crypto";
import { chargeItems } from "../../credits/charge-items";
import { queryAlone } from "../../base/transaction-sql";
import { Prisma } from "../../base/generated/prisma/client";
import { wakeWaiters } from "../finish-waiters";
import { lockingRead } from "./locking-read";
import { activityEventInsert } from "../../activity/record-activity";

// The usual success, as one autocommit statement: the generation and its account locked by the
// same read as finishSucceeded's transaction (locking-read.ts: generation first), and only when that
// transaction would take its plain path (in flight, its deadline ahead, its reservation open, no
// endpoint of the account taking generation.completed) the same writes: the attempt, the
// generation, its activity event, the charge and the charge's event. One round trip where the
// transaction takes four (BEGIN, the locking read, the writes, COMMIT), and one commit.
//
// Every other case writes nothing here and says so: finishSucceeded then runs its transaction,
// which decides it (a discard, a deadline, a retried step, the deliveries of a subscribed
// endpoint). The snapshot rule is the locking read's, documented there.

export type SuccessInput = {
  generationId: string;
  attempt: number;
  outputKeys: string[];
  predictTimeSeconds: number | null;
  predictionId: string | null;
  providerCost?: string | null;
  now: Date;
};

/** `settled`: written and committed. Else nothing was, and `subscribed` says whether an endpoint takes generation.completed. */
export type SettleOutcome = { settled: true } | { settled: false; subscribed: boolean };

export async function settleSuccessAtOnce(input: SuccessInput): Promise<SettleOutcome> {
  const { generationId, attempt, now } = input;
  const createdAt = new Date();
  const charge = chargeItems("ok", { entryId: randomUUID(), activityId: randomUUID(), createdAt });
  const statement = Prisma.sql`
    WITH locked AS MATERIALIZED (${lockingRead(generationId, attempt)}
    ), ok AS MATERIALIZED (
      -- Read after the locks: a deadline that passed while they were awaited has passed.
      SELECT * FROM locked
       WHERE status IN ('pending', 'processing') AND (deadline_at IS NULL OR deadline_at > clock_timestamp())
         AND reserved_amount IS NOT NULL AND settled_by IS NULL AND NOT completed_subscribed
    ), succeeded_attempt AS (
      UPDATE provider_attempt SET outcome = 'succeeded', finished_at = ${now}, latency_ms = (EXTRACT(EPOCH FROM (${now}::timestamptz - ok.attempt_started_at)) * 1000)::int,
             prediction_id = COALESCE(${input.predictionId}::text, provider_attempt.prediction_id), provider_cost = ${input.providerCost ?? null}::numeric
        FROM ok WHERE provider_attempt.id = ok.attempt_id
    ), succeeded_activity AS (${activityEventInsert(
      {
        id: Prisma.sql`${randomUUID()}::uuid`,
        accountId: Prisma.sql`ok.account_id`,
        actor: Prisma.sql`'system'`,
        category: Prisma.sql`'generation'::"ActivityCategory"`,
        action: Prisma.sql`'generation.succeeded'`,
        description: Prisma.sql`'Generation ' || ok.id || ' succeeded'`,
        metadata: Prisma.sql`jsonb_build_object('generation_id', ok.id, 'provider', ok.provider)`,
        createdAt: Prisma.sql`${createdAt}::timestamptz`,
      },
      Prisma.sql`FROM ok`,
    )}
    ), succeeded_generation AS (
      UPDATE generation SET status = 'succeeded', output_keys = ${input.outputKeys}::text[], completed_at = ${now}, error_code = NULL, error_message = NULL,
             prediction_id = COALESCE(${input.predictionId}::text, generation.prediction_id),
             metrics_total_time = EXTRACT(EPOCH FROM (${now}::timestamptz - ok.created_at))::float8,
             metrics_predict_time = COALESCE(${input.predictTimeSeconds}::float8, EXTRACT(EPOCH FROM (${now}::timestamptz - ok.attempt_started_at))::float8), updated_at = ${now}
        FROM ok WHERE generation.id = ok.id
    ), ${Prisma.join(charge, ", ")}
    SELECT (SELECT count(*) FROM entry) = 1 AS settled, coalesce((SELECT completed_subscribed FROM locked), false) AS subscribed`;
  const [row] = await queryAlone<{ settled: boolean; subscribed: boolean }>(statement);
  if (!row?.settled) return { settled: false, subscribed: row?.subscribed === true };
  // queueGenerationFinished's after-commit job for a transition with no subscribed endpoint.
  wakeWaiters(generationId);
  return { settled: true };
}
