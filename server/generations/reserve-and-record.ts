import "server-only";
import type { ModelDefinition } from "../catalog";
import type { ProviderId } from "../catalog/providers";
import type { GenerationRequest } from "../catalog/request-schema";
import { reserveCredits } from "../credits/reserve-credits";
import { decimalToMillis, millisToDecimalString } from "../base/money";
import type { Tx } from "../base/db";
import type { RegionName } from "../base/env";
import { ApiError } from "../base/error-table";
import { KeyRefused } from "../keys/key-refused";
import { planLimits } from "../plans/plan-limits";
import { concurrencyRetryAfter } from "./concurrency-retry-after";
import { spendBeforeOf, spendCheckSql, spendLimitsOf, spendRefusal, type LimitColumns, type SpendColumns } from "../spend/spend-guard";
import { recordSpendAlerts } from "../spend/record-spend-alerts";
import { Prisma } from "../base/generated/prisma/client";
import { queryInTransaction } from "../base/transaction-sql";
import { outputLifetimes } from "./output-lifetimes";

// Inside the create transaction, under the account's row lock: the spend limits (ERR1014), the
// concurrency cap (ERR1009), the `pending` record, and the reservation (ERR1004). Either all of
// it commits or none.

type Input = {
  accountId: string;
  apiKeyId: string;
  region: RegionName;
  generationId: string;
  model: ModelDefinition;
  fields: GenerationRequest;
  providerOrder: ProviderId[];
  routingExploration: boolean;
  costMillis: number;
  cancelAfterMs: number | null;
  /** The create's clock (tests move it across period boundaries); now by default. */
  now?: Date;
};

/** Cancel-After's deadline for a record created at `now`. */
export function deadlineOf(now: Date, cancelAfterMs: number | null): Date | null {
  return cancelAfterMs === null ? null : new Date(now.getTime() + cancelAfterMs);
}

type InsertParts = { now: Date; deadlineAt: Date | null; keyBudget: Prisma.Sql; from: Prisma.Sql; where: Prisma.Sql };

/**
 * The `pending` record's INSERT … SELECT: its values from the create, the key's budget as `keyBudget`
 * (a value, or a column of `from`), written only when `where` holds (the cap, the spend limits).
 */
export function generationInsert(
  input: Pick<
    Input,
    "generationId" | "accountId" | "apiKeyId" | "region" | "model" | "fields" | "providerOrder" | "routingExploration" | "costMillis"
  >,
  parts: InsertParts,
): Prisma.Sql {
  const { model, fields } = input;
  const lifetimes = outputLifetimes(fields);
  return Prisma.sql`
    INSERT INTO generation (id, account_id, api_key_id, region, media_kind, model_identifier, prompt, ratio, output_format, output_number,
      duration_seconds, resolution, generate_audio, input_files, input_file_last_content, params, provider_order, routing_exploration,
      estimated_cost, deadline_at, spend_budget_id, output_retention_seconds, output_link_ttl_seconds, created_at, updated_at)
    SELECT ${input.generationId}::uuid, ${input.accountId}::uuid, ${input.apiKeyId}::uuid, ${input.region}::"Region", ${model.type}::"MediaKind",
      ${model.identifier}, ${fields.generation_prompt ?? null}, ${fields.generation_ratio ?? null}, ${fields.generation_output_format ?? null},
      ${fields.generation_output_number ?? 1}::int, ${fields.generation_duration ?? null}::int, ${fields.generation_resolution ?? null},
      ${fields.generation_generate_audio ?? null}::boolean, ${fields.generation_input_file ?? []}::text[], ${fields.generation_input_file_last_content ?? null},
      ${JSON.stringify(fields)}::jsonb, ${input.providerOrder}::text[], ${input.routingExploration}, ${millisToDecimalString(input.costMillis)}::numeric,
      ${parts.deadlineAt}::timestamptz, ${parts.keyBudget}, ${lifetimes.retentionSeconds}::int, ${lifetimes.linkTtlSeconds}::int, ${parts.now}, ${parts.now}
      ${parts.from}
    WHERE ${parts.where}`;
}

/**
 * WITH items of the caller's for the statement that records and reserves, when it is one (the
 * run's events: server/base/events/send-in-transaction.ts), and select-list entries read back with it.
 */
export type Alongside = { items: Prisma.Sql[]; columns: Prisma.Sql[] };

/** `alongside`: the values of its columns when its items went with the record, else null (send them yourself). */
export async function reserveAndRecord(
  tx: Tx,
  input: Input,
  alongside?: Alongside,
): Promise<{ deadlineAt: Date | null; alongside: Record<string, unknown> | null }> {
  const { accountId, model } = input;
  // The lock every credit movement takes, and the balance under it: reserveCredits reads no second time.
  // The spend limits come with it (the key's budget, limit and period; the account's monthly limit).
  const [account] = await queryInTransaction<
    { plan: keyof typeof planLimits; balance: string; deleted: boolean; key_refusal: string | null } & LimitColumns
  >(
    tx,
    Prisma.sql`
    SELECT a.plan, a.credit_balance::text AS balance, a.deleted_at IS NOT NULL AS deleted, a.monthly_spend_limit::text AS account_limit,
           CASE WHEN k.id IS NULL THEN 'key_deleted' WHEN k.status = 'revoked' THEN 'revoked' END AS key_refusal,
           k.spend_limit::text AS key_limit, k.spend_period::text AS key_period, coalesce(k.spend_budget_id, k.id) AS key_budget
      FROM account a LEFT JOIN api_key k ON k.id = ${input.apiKeyId}::uuid AND k.account_id = a.id
     WHERE a.id = ${accountId}::uuid FOR NO KEY UPDATE OF a`,
  );
  if (!account) throw new ApiError("ERR1006", "The account was not found.");
  // The account was deleted after this request's key was checked: its keys are revoked now.
  if (account.deleted) throw new KeyRefused("account_deleted");
  // The key was deleted or revoked after the checkpoint passed it (the change reaches the key
  // caches just after its commit): nothing is charged to a key that no longer works.
  if (account.key_refusal) throw new KeyRefused(account.key_refusal);
  const cap = planLimits[account.plan].concurrency[model.type];
  // The cap's count, the spend limits and the insert in one statement (it runs after the lock
  // above, so it counts every generation and credit movement committed by whoever held the lock
  // before). Nothing is read back.
  const now = input.now ?? new Date();
  const deadlineAt = deadlineOf(now, input.cancelAfterMs);
  // With a spend limit, the insert also sums the budgets' counters and refuses a cost past them.
  const limits = spendLimitsOf(accountId, input.apiKeyId, account);
  const spend = limits ? spendCheckSql(limits, input.costMillis, now) : null;
  const insert = generationInsert(input, {
    now,
    deadlineAt,
    keyBudget: Prisma.sql`${account.key_budget}::uuid`,
    from: Prisma.empty,
    where: Prisma.sql`(SELECT count(*) FROM generation WHERE account_id = ${accountId}::uuid AND media_kind = ${model.type}::"MediaKind" AND status IN ('pending', 'processing')) < ${cap}
      ${spend?.condition ?? Prisma.empty}`,
  });
  const reservation = {
    accountId,
    generationId: input.generationId,
    amountMillis: input.costMillis,
    modelIdentifier: model.identifier,
    description: `Reserve for ${model.identifier} generation ${input.generationId}`,
    lockedBalanceMillis: decimalToMillis(account.balance),
    newGeneration: true,
  };
  const atCap = async () => {
    const inFlight = await tx.generation.count({ where: { accountId, mediaKind: model.type, status: { in: ["pending", "processing"] } } });
    // Every 429 carries Retry-After; this request had no capacity, so the
    // remaining count says 0 whatever the minute window still allows (Limit and Reset stay).
    const retryAfter = await concurrencyRetryAfter(tx, accountId, model.type);
    return new ApiError(
      "ERR1009",
      `At most ${cap} ${model.type} generations may be in flight on the ${account.plan} plan.`,
      { media_kind: model.type, limit: cap, in_flight: inFlight, retry_after_seconds: retryAfter },
      { "retry-after": String(retryAfter), "x-ratelimit-remaining": "0" },
    );
  };
  // No spend limit and a balance that covers the cost: the insert and the reservation in one
  // statement (nothing of the reservation is written when the cap refuses the insert). Otherwise the
  // insert alone first, so a spend limit (ERR1014) and the cap (ERR1009) answer before ERR1004.
  if (!spend && reservation.lockedBalanceMillis >= input.costMillis) {
    const recorded = Prisma.sql`recorded AS (${insert} RETURNING id, account_id, api_key_id, spend_budget_id, created_at)`;
    const recordedBy = { items: [recorded, ...(alongside?.items ?? [])], onlyAfter: "recorded", columns: alongside?.columns };
    const reserved = await reserveCredits(tx, { ...reservation, recordedBy });
    // A refusal rolls the whole transaction back, the caller's items with it.
    if (!reserved.applied) throw await atCap();
    return { deadlineAt, alongside: alongside ? (reserved.columns ?? {}) : null };
  }
  // With limits, the statement answers one row either way: the new id (null when refused) and the
  // spend before this create, which says why a refusal was one (and feeds the alerts).
  const [row] = await queryInTransaction<{ id: string | null } & SpendColumns>(
    tx,
    spend ? Prisma.sql`${spend.with}, inserted AS (${insert} RETURNING id) ${spend.select}` : Prisma.sql`${insert} RETURNING id`,
  );
  const before = limits && row ? spendBeforeOf(row) : null;
  if (!row?.id) {
    // A spend limit refuses for good (not retryable): it answers before the concurrency cap.
    const overLimit = limits && before ? spendRefusal(limits, before, input.costMillis, now) : null;
    if (overLimit) throw overLimit;
    throw await atCap();
  }
  await reserveCredits(tx, reservation);
  if (limits && before) await recordSpendAlerts(tx, limits, { ...before, costMillis: input.costMillis, now });
  return { deadlineAt, alongside: null };
}
