import "server-only";
import type { ModelDefinition } from "../catalog";
import type { ProviderId } from "../catalog/providers";
import type { GenerationRequest } from "../catalog/request-schema";
import { reserveCredits } from "../credits/reserve-credits";
import { decimalToMillis, millisToDecimalString } from "../money";
import type { Tx } from "../db";
import type { RegionName } from "../env";
import { ApiError } from "../error-table";
import { planLimits } from "../plans/plan-limits";
import { concurrencyRetryAfter } from "./concurrency-retry-after";

// Inside the create transaction, under the account's row lock: the concurrency cap (ERR1009),
// the `pending` record, and the reservation (ERR1004). Either all of it commits or none.

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
};

export async function reserveAndRecord(tx: Tx, input: Input): Promise<{ deadlineAt: Date | null }> {
  const { accountId, model, fields } = input;
  // The lock every credit movement takes, and the balance under it: reserveCredits reads no second time.
  const [account] = await tx.$queryRaw<Array<{ plan: keyof typeof planLimits; balance: string; deleted: boolean }>>`
    SELECT plan, credit_balance::text AS balance, deleted_at IS NOT NULL AS deleted FROM account WHERE id = ${accountId}::uuid FOR NO KEY UPDATE`;
  if (!account) throw new ApiError("ERR1006", "The account was not found.");
  // The account was deleted after this request's key was checked: its keys are revoked now.
  if (account.deleted) throw new ApiError("ERR1002", undefined, { reason: "account_deleted" });
  const cap = planLimits[account.plan].concurrency[model.type];
  // The cap's count and the insert in one statement (it runs after the lock above, so it counts
  // every generation committed by whoever held the lock before). Nothing is read back.
  const now = new Date();
  const deadlineAt = input.cancelAfterMs === null ? null : new Date(now.getTime() + input.cancelAfterMs);
  const inserted = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO generation (id, account_id, api_key_id, region, media_kind, model_identifier, prompt, ratio, output_format, output_number,
      duration_seconds, resolution, generate_audio, input_files, input_file_last_content, params, provider_order, routing_exploration,
      estimated_cost, deadline_at, created_at, updated_at)
    SELECT ${input.generationId}::uuid, ${accountId}::uuid, ${input.apiKeyId}::uuid, ${input.region}::"Region", ${model.type}::"MediaKind",
      ${model.identifier}, ${fields.generation_prompt ?? null}, ${fields.generation_ratio ?? null}, ${fields.generation_output_format ?? null},
      ${fields.generation_output_number ?? 1}::int, ${fields.generation_duration ?? null}::int, ${fields.generation_resolution ?? null},
      ${fields.generation_generate_audio ?? null}::boolean, ${fields.generation_input_file ?? []}::text[], ${fields.generation_input_file_last_content ?? null},
      ${JSON.stringify(fields)}::jsonb, ${input.providerOrder}::text[], ${input.routingExploration}, ${millisToDecimalString(input.costMillis)}::numeric,
      ${deadlineAt}::timestamptz, ${now}, ${now}
    WHERE (SELECT count(*) FROM generation WHERE account_id = ${accountId}::uuid AND media_kind = ${model.type}::"MediaKind" AND status IN ('pending', 'processing')) < ${cap}
    RETURNING id`;
  if (inserted.length === 0) {
    const inFlight = await tx.generation.count({ where: { accountId, mediaKind: model.type, status: { in: ["pending", "processing"] } } });
    // Every 429 carries Retry-After; this request had no capacity, so the
    // remaining count says 0 whatever the minute window still allows (Limit and Reset stay).
    const retryAfter = await concurrencyRetryAfter(tx, accountId, model.type);
    throw new ApiError(
      "ERR1009",
      `At most ${cap} ${model.type} generations may be in flight on the ${account.plan} plan.`,
      { media_kind: model.type, limit: cap, in_flight: inFlight, retry_after_seconds: retryAfter },
      { "retry-after": String(retryAfter), "x-ratelimit-remaining": "0" },
    );
  }
  await reserveCredits(tx, {
    accountId,
    generationId: input.generationId,
    amountMillis: input.costMillis,
    modelIdentifier: model.identifier,
    description: `Reserve for ${model.identifier} generation ${input.generationId}`,
    lockedBalanceMillis: decimalToMillis(account.balance),
    newGeneration: true,
  });
  return { deadlineAt };
}
