"use client";

import { useState } from "react";
import { Card, CardBody, CardHeader } from "@/components/ui";
import { planLabel } from "./billing-format";
import type { BillingCatalog, BillingInterval, BillingOverview, CatalogPlan } from "./billing-types";
import { IntervalSwitch } from "./interval-switch";
import { PlanCard, type PlanAction } from "./plan-card";
import { hasLiveStripeSubscription, priceBlockedReason, purchaseBlockedReason } from "./purchase-rules";
import type { BillingRedirect } from "./use-billing-redirect";

// Starter, Pro, Scale and Enterprise at the chosen interval. A first subscription starts in
// Checkout; an account that already pays through Stripe switches in the Customer Portal.

/** "2 months free" when a year costs that many months less than twelve monthly payments. */
function yearlyHint(plans: CatalogPlan[]): string | null {
  const pro = plans.find((plan) => plan.plan === "pro") ?? plans[0];
  const month = pro?.intervals.find((entry) => entry.interval === "month")?.price.amountCents;
  const year = pro?.intervals.find((entry) => entry.interval === "year")?.price.amountCents;
  if (!month || !year) return null;
  const saved = Math.round(12 - year / month);
  return saved >= 1 ? `${saved} month${saved === 1 ? "" : "s"} free` : null;
}

export function PlansSection({
  overview,
  catalog,
  redirect,
}: {
  overview: BillingOverview;
  catalog: BillingCatalog;
  redirect: BillingRedirect;
}) {
  const [interval, chooseInterval] = useState<BillingInterval>(overview.interval ?? "month");
  const blocked = purchaseBlockedReason(overview, catalog);
  const switchInPortal = hasLiveStripeSubscription(overview);
  const currentPlan = overview.summary.billing_plan;

  function actionFor(plan: CatalogPlan): PlanAction {
    const name = planLabel(plan.plan);
    const pending = (redirect.startCheckout.isPending && redirect.startCheckout.variables?.plan === plan.plan) || false;
    if (overview.managedBy === "contract") {
      return {
        label: "Set by contract",
        onClick: () => {},
        disabled: true,
        reason: "This account's plan is set by contract; ask the operator to change it.",
        pending: false,
      };
    }
    if (switchInPortal) {
      const isCurrent = plan.plan === currentPlan && interval === overview.interval;
      if (isCurrent) return { label: "Your plan", onClick: () => {}, disabled: true, reason: null, pending: false };
      return {
        label: "Switch in Manage billing",
        onClick: () => redirect.openPortal.mutate({ accountId: overview.summary.account_id }),
        disabled: blocked !== null || redirect.leaving,
        reason: blocked,
        pending: false,
      };
    }
    const offer = plan.intervals.find((entry) => entry.interval === interval);
    const reason = blocked ?? (offer ? priceBlockedReason(offer.price, overview) : "Not on sale.");
    return {
      label: `Choose ${name}`,
      onClick: () => redirect.startCheckout.mutate({ accountId: overview.summary.account_id, plan: plan.plan, interval }),
      disabled: reason !== null || redirect.leaving,
      reason,
      pending,
    };
  }

  return (
    <Card role="region" aria-label="Plans">
      <CardHeader
        title="Plans"
        description={
          overview.configured && catalog.stripeReachable
            ? "Each plan adds its credits every period and raises the account's limits. Billed by Stripe."
            : "Default prices, for reference. Each plan adds its credits every period and raises the account's limits."
        }
        actions={<IntervalSwitch value={interval} onChange={chooseInterval} yearlyHint={yearlyHint(catalog.plans)} />}
        className="flex-wrap"
      />
      <CardBody className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {catalog.plans.map((plan) => (
          <PlanCard key={plan.plan} plan={plan} interval={interval} current={plan.plan === currentPlan} action={actionFor(plan)} />
        ))}
      </CardBody>
    </Card>
  );
}
