import { planLimits } from "../plans/plan-limits";

// What Darkroom sells, named by Stripe lookup keys: a monthly and a yearly price per paid plan
// (`darkroom_<plan>_<month|year>`) and a one-time price per credit pack (`darkroom_pack_<credits>`).
// A subscription maps to a plan and interval through its item's price lookup key, never a price id.

export const paidPlans = ["starter", "pro", "scale", "enterprise"] as const;
export type PaidPlan = (typeof paidPlans)[number];
export const billingIntervals = ["month", "year"] as const;
export type BillingIntervalName = (typeof billingIntervals)[number];
export const packSizes = [10, 25, 50, 100, 500, 1000] as const;
export type PackSize = (typeof packSizes)[number];

export type CatalogItem = { kind: "plan"; plan: PaidPlan; interval: BillingIntervalName } | { kind: "pack"; credits: PackSize };

export const planLookupKey = (plan: PaidPlan, interval: BillingIntervalName) => `darkroom_${plan}_${interval}`;
export const packLookupKey = (credits: PackSize) => `darkroom_pack_${credits}`;

export function lookupKeyOf(item: CatalogItem): string {
  return item.kind === "plan" ? planLookupKey(item.plan, item.interval) : packLookupKey(item.credits);
}

export function parseLookupKey(key: string | null | undefined): CatalogItem | null {
  const plan = /^darkroom_(starter|pro|scale|enterprise)_(month|year)$/.exec(key ?? "");
  if (plan) return { kind: "plan", plan: plan[1] as PaidPlan, interval: plan[2] as BillingIntervalName };
  const pack = /^darkroom_pack_(\d+)$/.exec(key ?? "");
  if (pack && (packSizes as readonly number[]).includes(Number(pack[1]))) return { kind: "pack", credits: Number(pack[1]) as PackSize };
  return null;
}

export const catalogItems: CatalogItem[] = [
  ...paidPlans.flatMap((plan) => billingIntervals.map((interval): CatalogItem => ({ kind: "plan", plan, interval }))),
  ...packSizes.map((credits): CatalogItem => ({ kind: "pack", credits })),
];

/** Credits a plan grants per paid invoice of the interval, in millicredits (spec §1's table). */
export function periodCreditsMillis(plan: PaidPlan, interval: BillingIntervalName): number {
  return planLimits[plan].periodCreditsMillis[interval];
}

/** The default price: one credit is one USD, so the amount equals the credits. In cents. */
export function defaultAmountCents(item: CatalogItem): number {
  const credits = item.kind === "plan" ? periodCreditsMillis(item.plan, item.interval) / 1000 : item.credits;
  return Math.round(credits * 100);
}

/** Stripe products: one per plan (both intervals), one per pack. Fixed ids, so setup can find them again. */
export function productOf(item: CatalogItem): { id: string; name: string } {
  if (item.kind === "pack") return { id: `darkroom_pack_${item.credits}`, name: `Darkroom credit pack: ${item.credits} credits` };
  return { id: `darkroom_plan_${item.plan}`, name: `Darkroom ${item.plan[0]!.toUpperCase()}${item.plan.slice(1)}` };
}
