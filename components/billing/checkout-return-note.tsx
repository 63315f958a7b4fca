"use client";

import { CheckCircle2, Clock, Loader2, Undo2 } from "lucide-react";
import { useEffect } from "react";
import { toast } from "@/components/ui";
import { cardBrandLabel } from "./auto-top-up-format";
import { planLabel } from "./billing-format";
import { formatCredits } from "@/components/dashboard/format-credits";
import type { AutoTopUpView, BillingOverview, CheckoutReturn, CheckoutReturnKind } from "./billing-types";
import { BillingNote } from "./billing-note";
import type { PaymentWait } from "./use-payment-wait";

// What happened in Stripe, at the top of the page: a payment being applied (then applied), a card
// for auto top-up being saved (then auto top-up on), or a Checkout left without paying. The toast
// fires once; the query string is dropped so a reload does not announce it again.

const copy: Record<CheckoutReturnKind, { toast: string; what: string; canceled: string }> = {
  plan: {
    toast: "Payment received",
    what: "your plan and credits update",
    canceled: "Checkout was canceled; nothing was charged. Choose a plan again whenever you are ready.",
  },
  pack: {
    toast: "Payment received",
    what: "your credits are added",
    canceled: "Checkout was canceled; nothing was charged. Buy a pack again whenever you are ready.",
  },
  top_up: {
    toast: "Payment received",
    what: "the top-up's credits are added",
    canceled: "Checkout was canceled; nothing was charged. Auto top-up stays paused until the payment is confirmed or a new card is saved.",
  },
  card: {
    toast: "Card saved",
    what: "auto top-up turns on",
    canceled: "Card setup was canceled; no card was saved and nothing was charged.",
  },
};

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

export function CheckoutReturnNote({
  returned,
  wait,
  overview,
  autoTopUp,
}: {
  returned: NonNullable<CheckoutReturn>;
  wait: PaymentWait;
  overview: BillingOverview | undefined;
  autoTopUp: AutoTopUpView | undefined;
}) {
  const text = copy[returned.kind];
  const card = returned.kind === "card";

  useEffect(() => {
    if (returned.outcome === "success")
      toast.success(text.toast, { id: "checkout-return", description: `${sentence(text.what)} in a few seconds.` });
    window.history.replaceState(window.history.state, "", window.location.pathname);
  }, [returned.outcome, text]);

  if (returned.outcome === "canceled") {
    return (
      <BillingNote icon={Undo2}>
        {text.canceled}
        {card &&
          autoTopUp &&
          (autoTopUp.card ? " Auto top-up keeps using the card on file." : " Auto top-up stays off until a card is saved.")}
      </BillingNote>
    );
  }
  if (wait === "landed" && overview) {
    const { summary } = overview;
    if (card && autoTopUp?.card) {
      return (
        <BillingNote icon={CheckCircle2} tone="green">
          <span className="font-medium">Card saved; auto top-up is on.</span> {cardBrandLabel(autoTopUp.card.brand)} ending{" "}
          {autoTopUp.card.last4} is charged
          {autoTopUp.threshold !== null && autoTopUp.pack !== null
            ? ` for the ${autoTopUp.pack.toLocaleString("en")}-credit pack when the balance falls below ${formatCredits(autoTopUp.threshold)} credits.`
            : " when the balance runs low."}
        </BillingNote>
      );
    }
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
        {card ? (
          <>
            <span className="font-medium">Card received.</span> It is taking longer than usual; {text.what} within a minute. Reload the page
            to see it.
          </>
        ) : (
          <>
            <span className="font-medium">Payment received.</span> It is taking longer than usual to apply; {text.what} within a minute.
            Orders below shows each order&apos;s status.
          </>
        )}
      </BillingNote>
    );
  }
  return (
    <BillingNote icon={Loader2} tone="green" className="[&>svg]:animate-spin">
      <span className="font-medium">{card ? "Card received;" : "Payment received;"}</span> {text.what} in a few seconds.
    </BillingNote>
  );
}
