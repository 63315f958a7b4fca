"use client";

import { CheckCircle2, Clock, Loader2, Undo2 } from "lucide-react";
import { useEffect } from "react";
import { toast } from "@/components/ui";
import { planLabel } from "./billing-format";
import { formatCredits } from "@/components/dashboard/format-credits";
import type { BillingOverview, CheckoutReturn } from "./billing-types";
import { BillingNote } from "./billing-note";
import type { PaymentWait } from "./use-payment-wait";

// What happened in Checkout, at the top of the page: a payment being applied (then applied), or
// a Checkout left without paying. The toast fires once; the query string is dropped so a reload
// does not announce the payment again.

export function CheckoutReturnNote({
  returned,
  wait,
  overview,
}: {
  returned: NonNullable<CheckoutReturn>;
  wait: PaymentWait;
  overview: BillingOverview | undefined;
}) {
  const what = returned.kind === "plan" ? "your plan and credits update" : "your credits are added";

  useEffect(() => {
    if (returned.outcome === "success")
      toast.success("Payment received", {
        id: "checkout-return",
        description: `${what.charAt(0).toUpperCase()}${what.slice(1)} in a few seconds.`,
      });
    window.history.replaceState(window.history.state, "", window.location.pathname);
  }, [returned.outcome, what]);

  if (returned.outcome === "canceled") {
    return (
      <BillingNote icon={Undo2}>
        Checkout was canceled; nothing was charged.{" "}
        {returned.kind === "plan" ? "Choose a plan again whenever you are ready." : "Buy a pack again whenever you are ready."}
      </BillingNote>
    );
  }
  if (wait === "landed" && overview) {
    const { summary } = overview;
    return (
      <BillingNote icon={CheckCircle2} tone="green">
        <span className="font-medium">Payment applied.</span>{" "}
        {returned.kind === "plan" ? `You are on ${planLabel(summary.billing_plan)}; ` : ""}
        your balance is {formatCredits(summary.billing_credit_balance)} credits.
      </BillingNote>
    );
  }
  if (wait === "slow") {
    return (
      <BillingNote icon={Clock} tone="amber">
        <span className="font-medium">Payment received.</span> It is taking longer than usual to apply; {what} within a minute. Orders below
        shows each pack&apos;s status.
      </BillingNote>
    );
  }
  return (
    <BillingNote icon={Loader2} tone="green" className="[&>svg]:animate-spin">
      <span className="font-medium">Payment received;</span> {what} in a few seconds.
    </BillingNote>
  );
}
