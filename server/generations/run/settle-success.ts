import "server-only";
import { randomUUID } from "node:crypto";
import { chargeItems } from "../../credits/charge-items";
import { queryAlone } from "../../base/transaction-sql";
import { Prisma } from "../../base/generated/prisma/client";
import { activityEventInsert } from "../../activity/record-activity";
import { lockingRead } from "./locking-read";

// A provider's success, the one path that records it: one autocommit statement that takes the
// finish's locks (locking-read.ts: the generation, then its account) and decides every case under
// them. In flight with its deadline ahead: the attempt, the generation, its activity event, and the
// charge of its open reservation (chargeItems; none when nothing was reserved). Otherwise the
// attempt is marked discarded and wasted and nothing else moves, except for a retried step whose
// first try already recorded this success, which changes nothing.
//
// The answer says which, and whether an endpoint of the account takes generation.completed (the
// caller queues those deliveries once this committed: finish-generation.ts).

export type SuccessInput = {
  generationId: string;
  attempt: number;
  outputKeys: string[];
  /** Only for an account with its own bucket (server/storage/destinations): where each key went. */
  outputLocations?: string[];
  outputDestination?: unknown;
  predictTimeSeconds: number | null;
  predictionId: string | null;
  providerCost?: string | null;
  now: Date;
};

export type SuccessOutcome =
  /** `succeeded`: written now; `already_succeeded`: a retried step, its first try's success stands. */
  | { done: "succeeded" | "already_succeeded"; accountId: string; subscribed: boolean }
  /** The attempt was discarded: the generation left flight meanwhile, or its Cancel-After deadline passed (still in flight). */
  | { declined: "not_in_flight" | "past_deadline" };

type Row = { outcome: "succeeded" | "already_succeeded" | "not_in_flight" | "past_deadline"; account_id: string; subscribed: boolean };

export async function settleSuccess(input: SuccessInput): Promise<SuccessOutcome> {
  const { generationId, attempt, now } = input;
  const createdAt = new Date();
  const charge = chargeItems("due", { entryId: randomUUID(), activityId: randomUUID(), createdAt });
  const latencyMs = (attempt: string) =>
    Prisma.sql`(EXTRACT(EPOCH FROM (${now}::timestamptz - ${Prisma.raw(attempt)}.attempt_started_at)) * 1000)::int`;
  const placement = input.outputLocations?.length
    ? Prisma.sql`, output_locations = ${input.outputLocations}::text[], output_destination = ${JSON.stringify(input.outputDestination ?? null)}::jsonb`
    : Prisma.empty;
  const statement = Prisma.sql`
    WITH locked AS MATERIALIZED (${lockingRead(generationId, attempt)}
    ), decided AS MATERIALIZED (
      -- Read after the locks: a deadline that passed while they were awaited has passed.
      SELECT *, CASE
               WHEN status NOT IN ('pending', 'processing') THEN CASE WHEN attempt_outcome = 'succeeded' THEN 'already_succeeded' ELSE 'not_in_flight' END
               WHEN deadline_at IS NOT NULL AND deadline_at <= clock_timestamp() THEN 'past_deadline'
               ELSE 'succeeded' END AS outcome
        FROM locked
    ), ok AS MATERIALIZED (
      SELECT * FROM decided WHERE outcome = 'succeeded'
    ), due AS MATERIALIZED (
      -- The open reservation to charge (a generation that reserved nothing is charged nothing).
      SELECT * FROM ok WHERE reserved_amount IS NOT NULL AND settled_by IS NULL
    ), discarded_attempt AS (
      UPDATE provider_attempt SET outcome = 'discarded', wasted = true, finished_at = ${now}, latency_ms = ${latencyMs("d")},
             provider_cost = ${input.providerCost ?? null}::numeric
        FROM decided d WHERE provider_attempt.id = d.attempt_id AND d.outcome IN ('not_in_flight', 'past_deadline')
    ), succeeded_attempt AS (
      UPDATE provider_attempt SET outcome = 'succeeded', finished_at = ${now}, latency_ms = ${latencyMs("ok")},
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
      UPDATE generation SET status = 'succeeded', output_keys = ${input.outputKeys}::text[]${placement}, completed_at = ${now}, error_code = NULL, error_message = NULL,
             prediction_id = COALESCE(${input.predictionId}::text, generation.prediction_id),
             metrics_total_time = EXTRACT(EPOCH FROM (${now}::timestamptz - ok.created_at))::float8,
             metrics_predict_time = COALESCE(${input.predictTimeSeconds}::float8, EXTRACT(EPOCH FROM (${now}::timestamptz - ok.attempt_started_at))::float8), updated_at = ${now}
        FROM ok WHERE generation.id = ok.id
    ), ${Prisma.join(charge, ", ")}
    SELECT outcome, account_id, completed_subscribed AS subscribed FROM decided`;
  const [row] = await queryAlone<Row>(statement);
  if (!row) throw new Error(`generation ${generationId} has no attempt ${attempt}`);
  if (row.outcome === "succeeded" || row.outcome === "already_succeeded")
    return { done: row.outcome, accountId: row.account_id, subscribed: row.subscribed };
  return { declined: row.outcome };
}
