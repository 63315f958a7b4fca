"use client";

import { useEffect, useState } from "react";
import type { BillingOverview, CheckoutReturn } from "./billing-types";
import { hasLiveStripeSubscription } from "./purchase-rules";

// After a successful Checkout, Stripe's webhook applies the payment a moment later: the page polls
// (every 2 s, up to 30 s) until the plan, its status or the balance differs from what it first
// saw. A plan Checkout has landed as soon as a live Stripe subscription shows up (Checkout is only
// offered without one).

const WAIT_MS = 30_000;

export type PaymentWait = "idle" | "waiting" | "landed" | "slow";

function fingerprint(overview: BillingOverview): string {
  const { summary } = overview;
  return [summary.billing_plan, summary.billing_subscription_status, summary.billing_credit_balance, overview.interval].join("|");
}

export function usePaymentWait(returned: CheckoutReturn, overview: BillingOverview | undefined): PaymentWait {
  const expecting = returned?.outcome === "success";
  const [baseline, setBaseline] = useState(() => (overview ? fingerprint(overview) : null));
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    if (!expecting) return;
    const timer = setTimeout(() => setExpired(true), WAIT_MS);
    return () => clearTimeout(timer);
  }, [expecting]);

  // The first overview, if it arrived after the first render (React's "adjust state while rendering").
  if (overview && baseline === null) setBaseline(fingerprint(overview));

  if (!expecting) return "idle";
  if (overview && ((returned.kind === "plan" && hasLiveStripeSubscription(overview)) || (baseline !== null && baseline !== fingerprint(overview)))) return "landed";
  return expired ? "slow" : "waiting";
}
