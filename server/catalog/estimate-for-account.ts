import "server-only";
import type { Db } from "../base/db";
import { getBalance } from "../ledger/get-balance";
import { estimateCost, type EstimateQuery } from "./estimate";
import { findServedModel } from "./model-status";
import { formatCredits } from "../base/money";
import { spendRemaining } from "../spend/spend-remaining";

/**
 * GET /v1/estimate/{model_identifier}: the price breakdown plus what the balance can pay for, within
 * the spend limits of the key asking and of its account (`apikey_spend_remaining`, the smaller room).
 * A model this deployment does not serve (`configured` providers, the operator's switches) is ERR1012.
 */
export async function estimateForAccount(
  db: Db,
  accountId: string,
  apiKeyId: string,
  modelIdentifier: string,
  query: EstimateQuery,
  configured: ReadonlySet<string>,
) {
  const model = findServedModel(modelIdentifier, configured);
  const estimate = estimateCost(model, query);
  const [balance, remaining] = await Promise.all([getBalance(db, accountId), spendRemaining(db, accountId, apiKeyId)]);
  const spendable = remaining === null ? balance : Math.min(balance, remaining);
  return {
    model_identifier: model.identifier,
    model_type: model.type,
    assets_count: estimate.assetsCount,
    cost_per_generation: formatCredits(estimate.costPerGenerationMillis),
    cost_total_consumed: formatCredits(estimate.totalMillis),
    credit_balance: formatCredits(balance),
    credit_balance_can_afford: spendable >= estimate.totalMillis,
    // How many outputs of this configuration the balance pays for, within the spend limits.
    credit_balance_max_affordable: Math.floor(spendable / estimate.costPerGenerationMillis),
    apikey_spend_remaining: remaining === null ? null : formatCredits(remaining),
    ...(model.type === "video"
      ? {
          cost_per_second: formatCredits(estimate.costPerSecondMillis ?? 0),
          duration_seconds: estimate.durationSeconds,
          resolution: estimate.resolution,
          generate_audio: estimate.audio ?? false,
        }
      : {}),
  };
}
