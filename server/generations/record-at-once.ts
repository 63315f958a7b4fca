import "server-only";
import { randomUUID } from "node:crypto";
import { reserveItems } from "../credits/reserve-items";
import { queryAlone } from "../base/transaction-sql";
import { prepareSendAtOnce } from "../base/events/send-in-transaction";
import { Prisma } from "../base/generated/prisma/client";
import { millisToDecimalString } from "../base/money";
import { planLimits } from "../plans/plan-limits";
import { couldStartTopUp } from "../credits/top-up-trigger";
import { deadlineOf, generationInsert } from "./reserve-and-record";
import { createdAnswer, startEvents, type GenerationCreated, type GenerationPlan } from "./start-generation";

// The usual create, as one autocommit statement: the account locked as the create's transaction
// locks it (reserveAndRecord), and only when that transaction would take its plain path (account
// and key live, no spend limit, the balance covering the cost, under the concurrency cap, no
// low-balance threshold crossed, no auto top-up to start) the same writes: the `pending` record, the reservation and its
// activity event and spend counters, and the run's event and run rows. One round trip where the
// transaction takes four (BEGIN, the lock, the writes, COMMIT), and one commit.
//
// The catch of one statement: its snapshot is taken before the lock wait, so the cap's count could
// miss a generation recorded by the lock holder it waited for. Every create that records a
// generation writes its account row (its reservation moves the balance, or touches the row when it
// reserves nothing: server/ledger/append-ledger-entry.ts), so such a holder leaves a newer version
// of the row than the snapshot's: the statement compares the locked row's version (xmin) with the
// snapshot's and writes nothing when they differ. Then, as in every other case, it answers null
// and the caller runs the transaction, which decides (and answers ERR1004, ERR1009, ERR1014, …).

// With an Idempotency-Key, the key's record goes in the same statement, already completed with the
// answer (known before the statement: the create's answer is the plan's), after the account's lock
// (so two creates under one key never wait on each other in opposite orders). A key already held
// (a replay, a request in progress, another body) inserts nothing, so nothing is written and the
// caller takes the path that claims the key and answers as the record says.

type Outcome = { recorded: boolean; started_runs: string[] | null };

/** The Idempotency-Key's record as the statement stores it: the key, the request's hash and its answer. */
export type KeyRecord = { key: string; requestHash: string; requestId: string; statusCode: number; responseBody: unknown; expiresAt: Date };

export async function startGenerationAtOnce(
  plan: GenerationPlan,
  keyRecordFor: ((answer: GenerationCreated) => KeyRecord) | null = null,
): Promise<GenerationCreated | null> {
  const { generationId, accountId, model } = plan;
  const answer = createdAnswer(plan);
  const keyRecord = keyRecordFor ? keyRecordFor(answer) : null;
  const now = plan.now ?? new Date();
  const deadlineAt = deadlineOf(now, plan.cancelAfterMs);
  const send = await prepareSendAtOnce("generation/requested", startEvents(plan, deadlineAt), "recorded");
  const cost = Prisma.sql`${millisToDecimalString(plan.costMillis)}::numeric`;
  const caps = Object.fromEntries(Object.entries(planLimits).map(([name, limits]) => [name, limits.concurrency[model.type]]));
  const insert = generationInsert(plan, {
    now,
    deadlineAt,
    keyBudget: Prisma.sql`ok.key_budget`,
    from: keyRecord ? Prisma.sql`FROM ok JOIN claimed ON true` : Prisma.sql`FROM ok`,
    where: Prisma.sql`true`,
  });
  const reserve = reserveItems("recorded", "ok", {
    generationId,
    amountMillis: plan.costMillis,
    modelIdentifier: model.identifier,
    description: `Reserve for ${model.identifier} generation ${generationId}`,
    entryId: randomUUID(),
    activityId: randomUUID(),
    createdAt: new Date(),
  });
  const carried = send.carried
    ? [Prisma.sql`, ${Prisma.join(send.carried.items, ", ")}`, Prisma.sql`, ${send.carried.column}`]
    : [Prisma.empty, Prisma.sql`, NULL::text[] AS started_runs`];
  const statement = Prisma.sql`
    WITH locked AS MATERIALIZED (
      SELECT a.id, a.plan::text AS plan, a.credit_balance, a.xmin::text AS version, a.deleted_at IS NULL AND a.monthly_spend_limit IS NULL AS account_plain,
             k.id IS NOT NULL AND k.status <> 'revoked' AND k.spend_limit IS NULL AS key_plain, coalesce(k.spend_budget_id, k.id) AS key_budget
        FROM account a LEFT JOIN api_key k ON k.id = ${plan.apiKeyId}::uuid AND k.account_id = a.id
       WHERE a.id = ${accountId}::uuid
         FOR NO KEY UPDATE OF a
    ), ok AS MATERIALIZED (
      SELECT * FROM locked
       WHERE account_plain AND key_plain
         -- Nothing committed to the account between this statement's snapshot and its lock (see above).
         AND version = (SELECT xmin::text FROM account WHERE id = ${accountId}::uuid)
         AND credit_balance >= ${cost}
         AND NOT EXISTS (SELECT 1 FROM alert_threshold t WHERE t.account_id = locked.id AND t.armed AND t.amount > locked.credit_balance - ${cost})
         AND NOT ${couldStartTopUp("locked", cost)}
         AND (SELECT count(*) FROM generation WHERE account_id = ${accountId}::uuid AND media_kind = ${model.type}::"MediaKind" AND status IN ('pending', 'processing'))
             < (${JSON.stringify(caps)}::jsonb ->> locked.plan)::int
    )${keyRecord ? Prisma.sql`, claimed AS (${claimInsert(keyRecord, now)})` : Prisma.empty}, recorded AS (${insert} RETURNING id, account_id, api_key_id, spend_budget_id, created_at),
    ${Prisma.join(reserve, ", ")}${carried[0]}
    SELECT EXISTS (SELECT 1 FROM entry) AS recorded${carried[1]}`;
  const [outcome] = await queryAlone<Outcome>(statement);
  if (!outcome?.recorded) return null;
  await send.committed(outcome.started_runs ?? []);
  return answer;
}

/** The completed key record, for the key's lineage (the budget id a rotation carries: idempotency.ts). */
function claimInsert(record: KeyRecord, now: Date): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO idempotency_record (id, account_id, api_key_lineage_id, key, request_hash, request_id, state, status_code, response_body, completed_at, expires_at)
    SELECT gen_random_uuid(), ok.id, ok.key_budget, ${record.key}, ${record.requestHash}, ${record.requestId}, 'completed'::"IdempotencyState", ${record.statusCode}::int,
           ${JSON.stringify(record.responseBody)}::jsonb, ${now}, ${record.expiresAt}
      FROM ok
    ON CONFLICT (account_id, api_key_lineage_id, key) DO NOTHING
    RETURNING id`;
}
