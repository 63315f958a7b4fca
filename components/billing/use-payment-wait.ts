"use client";

import { useEffect, useState } from "react";
import type { BillingOverview, CheckoutReturn } from "./billing-types";
import { hasLiveStripeSubscription } from "./purchase-rules";

// After a successful Checkout, Stripe's webhook applies the payment a moment later: the page polls
// (every 2 s, up to 30 s) until it shows. A plan Checkout has landed once a live Stripe
// subscription shows up with its first invoice credited (Checkout is only offered without one); a
// pack once the newest order has left `pending` (fulfilled, or waiting for review).

const WAIT_MS = 30_000;

export type PaymentWait = "idle" | "waiting" | "landed" | "slow";

export function usePaymentWait(returned: CheckoutReturn, overview: BillingOverview | undefined): PaymentWait {
  const expecting = returned?.outcome === "success";
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    if (!expecting) return;
    const timer = setTimeout(() => setExpired(true), WAIT_MS);
    return () => clearTimeout(timer);
  }, [expecting]);

  if (!expecting) return "idle";
  if (!overview) return expired ? "slow" : "waiting";
  const landed =
    returned.kind === "plan"
      ? hasLiveStripeSubscription(overview) && overview.planCredited
      : overview.latestOrder !== null && overview.latestOrder.status !== "pending";
  if (landed) return "landed";
  return expired ? "slow" : "waiting";
}
