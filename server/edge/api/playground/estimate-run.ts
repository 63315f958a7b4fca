import "server-only";
import { accountScope } from "../../../base/account-scope";
import type { AccountMembership } from "../../../accounts/find-membership";
import { estimateCost } from "../../../catalog/estimate";
import type { GenerationRequest } from "../../../catalog/request-schema";
import { db } from "../../../base/db";
import type { FieldErrors } from "../../../base/error-table";
import { getBalance } from "../../../ledger/get-balance";
import { formatCredits, MILLIS_PER_CREDIT, type Millicredits } from "../../../base/money";
import { findPlaygroundKey, playgroundKeyRefusal } from "../../../playground/playground-key";
import { readRunRoles, runRefusal } from "../../../playground/run-roles";
import { getAccountSpend } from "../../../spend/account-spend";
import { requestingKeySpend } from "../../../spend/key-spend";
import { checkRunBody, servedModel } from "./parse-run-body";

// What the playground shows beside Run as the form changes: the price of exactly this request (the
// estimate GET /v1/estimate computes, the amount create reserves), what the balance and the spend
// limits (the playground key's budget, the account's month) leave, and, when Run would be refused,
// why, in the order the create would refuse it.

export type RunEstimate = {
  model_identifier: string;
  assets_count: number;
  cost_per_generation: number;
  cost_total: number;
  credit_balance: number;
  /** The smaller room of the key's and the account's limits; null without limits. */
  spend_remaining: number | null;
  max_affordable: number;
  field_errors: FieldErrors;
  can_run: boolean;
  refusal: string | null;
};

const toMillis = (credits: number) => Math.round(credits * MILLIS_PER_CREDIT);

export async function estimateRun(membership: AccountMembership, identifier: string, body: Record<string, unknown>): Promise<RunEstimate> {
  const { accountId } = membership;
  const model = servedModel(identifier);
  const checked = checkRunBody(model, body);
  const values: Partial<GenerationRequest> = checked.ok ? checked.fields : {};
  const estimate = estimateCost(model, {
    count: typeof values.generation_output_number === "number" ? values.generation_output_number : 1,
    ratio: values.generation_ratio,
    duration: values.generation_duration,
    resolution: values.generation_resolution,
    audio: values.generation_generate_audio,
  });
  const [roles, key, balance, account] = await Promise.all([
    readRunRoles(db, accountId),
    findPlaygroundKey(db, accountId),
    getBalance(db, accountId),
    getAccountSpend(db, accountScope(accountId), accountId),
  ]);
  const keySpend = key ? await requestingKeySpend(db, accountScope(accountId), key.id) : null;
  const keyRoom = keySpend?.spend_limit == null ? null : Math.max(0, toMillis(keySpend.spend_limit) - toMillis(keySpend.spend_used));
  const accountRoom =
    account.monthly_spend_limit === null ? null : Math.max(0, toMillis(account.monthly_spend_limit) - toMillis(account.spend_used));
  const rooms = [keyRoom, accountRoom].filter((room): room is Millicredits => room !== null);
  const remaining = rooms.length ? Math.min(...rooms) : null;
  const spendable = remaining === null ? balance : Math.min(balance, remaining);
  const total = estimate.totalMillis;
  const credits = (millis: Millicredits) => `${formatCredits(millis)} credits`;
  const refusal =
    runRefusal(membership.role, roles) ??
    playgroundKeyRefusal(key) ??
    (checked.ok
      ? null
      : `Fix the form: ${checked.errors.map((error) => `${error.field} ${error.message}`).join("; ") || "the request is invalid"}.`) ??
    (keyRoom !== null && keyRoom < total
      ? `The Dashboard playground key's spend limit leaves ${credits(keyRoom)} this ${keySpend?.spend_period}; this run costs ${credits(total)}.`
      : null) ??
    (accountRoom !== null && accountRoom < total
      ? `The account's monthly spend limit leaves ${credits(accountRoom)}; this run costs ${credits(total)}.`
      : null) ??
    (balance < total ? `The balance of ${credits(balance)} does not cover this run's ${credits(total)}.` : null);
  return {
    model_identifier: model.identifier,
    assets_count: estimate.assetsCount,
    cost_per_generation: formatCredits(estimate.costPerGenerationMillis),
    cost_total: formatCredits(total),
    credit_balance: formatCredits(balance),
    spend_remaining: remaining === null ? null : formatCredits(remaining),
    max_affordable: Math.floor(spendable / estimate.costPerGenerationMillis),
    field_errors: checked.ok ? [] : checked.errors,
    can_run: refusal === null,
    refusal,
  };
}
