import type { SubscriptionStatus } from "../base/generated/prisma/enums";

// Which Stripe subscription statuses keep the paid plan. `past_due` keeps it while Stripe retries
// the payment; `incomplete` never had a first payment; the rest have ended.

export const LIVE_STATUSES: readonly SubscriptionStatus[] = ["active", "trialing", "past_due"];
/** Credit packs are sold only on top of these (spec §1). */
export const PACK_STATUSES: readonly SubscriptionStatus[] = ["active", "trialing"];

export const isLive = (status: SubscriptionStatus) => LIVE_STATUSES.includes(status);
export const allowsPacks = (status: SubscriptionStatus | undefined) => status !== undefined && PACK_STATUSES.includes(status);
