"use client";

import { useEffect, useState } from "react";
import type { AutoTopUpView, BillingOverview, CheckoutReturn } from "./billing-types";
import { hasLiveStripeSubscription } from "./purchase-rules";

// After a successful Checkout, Stripe's webhook applies it a moment later: the page polls (every
// 2 s, up to 30 s) until it shows. A plan Checkout has landed once a live Stripe subscription shows
// up with its first invoice credited (Checkout is only offered without one); a pack once the newest
// order has left `pending` (fulfilled, or waiting for review); an auto top-up paid after the bank's
// request once the newest order is no longer waiting for it; a card saved for auto top-up once the
// setting shows a card and is on.

const WAIT_MS = 30_000;

export type PaymentWait = "idle" | "waiting" | "landed" | "slow";

const TOP_UP_IN_FLIGHT: string[] = ["pending", "processing", "requires_action"];

function hasLanded(returned: NonNullable<CheckoutReturn>, overview: BillingOverview, autoTopUp: AutoTopUpView | undefined): boolean {
  switch (returned.kind) {
    case "plan":
      return hasLiveStripeSubscription(overview) && overview.planCredited;
    case "pack":
      return overview.latestOrder !== null && overview.latestOrder.status !== "pending";
    case "top_up":
      return overview.latestOrder !== null && !TOP_UP_IN_FLIGHT.includes(overview.latestOrder.status);
    case "card":
      return autoTopUp !== undefined && autoTopUp.card !== null && autoTopUp.enabled && !autoTopUp.paused;
  }
}

export function usePaymentWait(
  returned: CheckoutReturn,
  overview: BillingOverview | undefined,
  autoTopUp: AutoTopUpView | undefined,
): PaymentWait {
  const expecting = returned?.outcome === "success";
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    if (!expecting) return;
    const timer = setTimeout(() => setExpired(true), WAIT_MS);
    return () => clearTimeout(timer);
  }, [expecting]);

  if (!expecting) return "idle";
  if (!overview) return expired ? "slow" : "waiting";
  if (hasLanded(returned, overview, autoTopUp)) return "landed";
  return expired ? "slow" : "waiting";
}
