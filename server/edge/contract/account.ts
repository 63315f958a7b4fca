import { z } from "zod";
import { SubscriptionStatus } from "../../base/generated/prisma/enums";
import { planNames } from "../../plans/plan-limits";
import { creditsSchema, dateTimeSchema, uuidSchema } from "./common";
import { integerQueryParam } from "./query";

// GET /v1/status, /v1/usage, /v1/user/account and /v1/user/billing.

export const keyStatusSchema = z.object({
  account_id: uuidSchema,
  apikey_id: uuidSchema,
  apikey_name: z.string().max(100),
  apikey_prefix: z.string().describe("The first 9 characters of the key, e.g. `dkr_Ab3xY`."),
  apikey_created_at: dateTimeSchema,
  apikey_last_used_at: dateTimeSchema,
  apikey_expires_at: dateTimeSchema.nullable().describe("null: the key never expires."),
  apikey_spend_limit: creditsSchema
    .nullable()
    .describe("The key's spend limit in credits (shared with the keys it was rotated from or to); null: none."),
  apikey_spend_period: z
    .enum(["day", "week", "month", "total"])
    .nullable()
    .describe("UTC periods (a week starts Monday 00:00); `total` never resets; null without a limit."),
  apikey_spend_used: creditsSchema.describe(
    "Credits charged plus still reserved for generations created in the current period (without a limit: ever).",
  ),
  apikey_spend_resets_at: dateTimeSchema
    .nullable()
    .describe("When the period ends and the budget resets; null for `total` and without a limit."),
});

export const usageQuerySchema = z.object({
  days: integerQueryParam({ min: 1, max: 90, default: 30 }).describe("Lookback window in days."),
});

export const usageEndpointSchema = z.object({
  endpoint: z.string().describe("Route pattern, e.g. `/v1/content/{generation_id}`."),
  total_requests: z.int().min(0),
  success_count: z.int().min(0),
  client_error_count: z.int().min(0),
  server_error_count: z.int().min(0),
  error_codes: z.record(z.string(), z.int().min(0)).describe("Error code → number of responses that carried it."),
});

export const usageProviderSchema = z.object({
  provider: z.string(),
  total_submissions: z.int().min(0),
  used_count: z.int().min(0),
  cancelled_count: z.int().min(0),
  discarded_count: z.int().min(0),
  failed_count: z.int().min(0),
  total_estimated_cost: creditsSchema,
  wasted_estimated_cost: creditsSchema,
});

export const usageSummarySchema = z.object({
  account_id: uuidSchema,
  usage_period_days: z.int().min(1).max(90),
  usage_credit_balance: creditsSchema,
  usage_total_requests: z.int().min(0),
  usage_total_success: z.int().min(0),
  usage_total_client_errors: z.int().min(0),
  usage_total_server_errors: z.int().min(0),
  usage_total_generations: z.int().min(0),
  usage_total_provider_submissions: z.int().min(0),
  usage_total_estimated_cost: creditsSchema.describe("Charged or still reserved; failed and canceled generations were refunded."),
  usage_endpoints: z.array(usageEndpointSchema),
  usage_providers: z.array(usageProviderSchema),
});

export const accountProfileSchema = z.object({
  account_id: uuidSchema,
  account_name: z.string(),
  account_email: z.string().describe("The account's contact address."),
  account_is_personal: z.boolean(),
  account_picture_url: z.string().nullable(),
  account_created_at: dateTimeSchema,
});

/** Stripe's statuses as stored, plus the two the billing summary uses without a subscription. */
export const subscriptionStatuses = [...Object.values(SubscriptionStatus), "none", "manual"] as const;

export const autoTopUpSchema = z
  .object({
    enabled: z.boolean().describe("On: the saved card is charged when the balance falls below `threshold`."),
    threshold: creditsSchema.nullable().describe("Below this balance a top-up starts; null when never set."),
    pack: z.number().int().nullable().describe("The credit pack a top-up buys (10, 25, 50, 100, 500 or 1000)."),
    monthly_cap: z.number().nullable().describe("At most this much (in `currency`) is spent on top-ups per calendar month (UTC)."),
    pack_price: z.number().nullable().describe("What one top-up costs, in `currency`."),
    spent_this_month: z.number().describe("Spent on top-ups this calendar month, in `currency`, including one being charged."),
    currency: z.string(),
    paused: z.boolean().describe("Paused after 3 declines in a row, or while the bank waits for the cardholder."),
    pause_reason: z.string().nullable(),
    consecutive_failures: z.number().int(),
    last_failure: z.object({ reason: z.string(), at: dateTimeSchema }).nullable(),
    card: z
      .object({ brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() })
      .nullable()
      .describe("The saved card, or null."),
  })
  .describe("The auto top-up setting (set by the primary owner on the billing page or with the CLI).");

export const billingSummarySchema = z.object({
  account_id: uuidSchema,
  billing_plan: z.enum(planNames),
  billing_credit_balance: creditsSchema,
  billing_subscription_status: z
    .enum(subscriptionStatuses)
    .describe("The Stripe subscription status; `none` on Free without one, `manual` on a plan an operator assigned."),
  billing_cancel_at_period_end: z.boolean(),
  billing_currency: z.string().describe("ISO 4217 code in lower case, e.g. `usd`."),
  billing_period_starts_at: dateTimeSchema.nullable().describe("null without a subscription."),
  billing_period_ends_at: dateTimeSchema.nullable().describe("null without a subscription."),
  billing_created_at: dateTimeSchema,
  billing_updated_at: dateTimeSchema,
  billing_auto_top_up: autoTopUpSchema,
});

export type KeyStatus = z.infer<typeof keyStatusSchema>;
export type UsageQuery = z.output<typeof usageQuerySchema>;
export type UsageSummaryData = z.infer<typeof usageSummarySchema>;
export type AccountProfile = z.infer<typeof accountProfileSchema>;
export type BillingSummary = z.infer<typeof billingSummarySchema>;
