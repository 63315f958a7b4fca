import "server-only";
import type { ModelDefinition } from "../catalog";
import type { ProviderId } from "../catalog/providers";
import type { GenerationRequest } from "../catalog/request-schema";
import { reserveCredits } from "../credits/reserve-credits";
import { decimalToMillis, millisToDecimalString } from "../credits/money";
import type { Tx } from "../db";
import type { RegionName } from "../env";
import { ApiError } from "../errors";
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
};

export async function reserveAndRecord(tx: Tx, input: Input) {
  const { accountId, model, fields } = input;
  // The lock every credit movement takes, and the balance under it: reserveCredits reads no second time.
  const [account] = await tx.$queryRaw<Array<{ plan: keyof typeof planLimits; balance: string; deleted: boolean }>>`
    SELECT plan, credit_balance::text AS balance, deleted_at IS NOT NULL AS deleted FROM account WHERE id = ${accountId}::uuid FOR UPDATE`;
  if (!account) throw new ApiError("ERR1006", "The account was not found.");
  // The account was deleted after this request's key was checked: its keys are revoked now.
  if (account.deleted) throw new ApiError("ERR1002", undefined, { reason: "account_deleted" });
  const cap = planLimits[account.plan].concurrency[model.type];
  const inFlight = await tx.generation.count({ where: { accountId, mediaKind: model.type, status: { in: ["pending", "processing"] } } });
  if (inFlight >= cap) {
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

  await tx.generation.create({
    data: {
      id: input.generationId,
      accountId,
      apiKeyId: input.apiKeyId,
      region: input.region,
      mediaKind: model.type,
      modelIdentifier: model.identifier,
      prompt: fields.generation_prompt ?? null,
      ratio: fields.generation_ratio,
      outputFormat: fields.generation_output_format,
      outputNumber: fields.generation_output_number,
      durationSeconds: fields.generation_duration ?? null,
      resolution: fields.generation_resolution ?? null,
      generateAudio: fields.generation_generate_audio ?? null,
      inputFiles: fields.generation_input_file ?? [],
      inputFileLastContent: fields.generation_input_file_last_content ?? null,
      params: JSON.parse(JSON.stringify(fields)),
      providerOrder: input.providerOrder,
      routingExploration: input.routingExploration,
      estimatedCost: millisToDecimalString(input.costMillis),
    },
    // Nothing is read back: the whole row (its request body too) would only be parsed and dropped.
    select: { id: true },
  });
  await reserveCredits(tx, {
    accountId,
    generationId: input.generationId,
    amountMillis: input.costMillis,
    modelIdentifier: model.identifier,
    description: `Reserve for ${model.identifier} generation ${input.generationId}`,
    lockedBalanceMillis: decimalToMillis(account.balance),
    newGeneration: true,
  });
}
