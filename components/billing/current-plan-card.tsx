"use client";

import { CalendarClock, ExternalLink, FileSignature } from "lucide-react";
import { formatCredits } from "@/components/dashboard/format-credits";
import { Button, Card, CardFooter, cn } from "@/components/ui";
import { formatBillingDate, planLabel } from "./billing-format";
import type { BillingOverview } from "./billing-types";
import { portalAvailable, purchaseBlockedReason } from "./purchase-rules";
import { SubscriptionStatusBadge } from "./subscription-status-badge";
import type { BillingRedirect } from "./use-billing-redirect";

// The account's plan as billed today (status, interval, period, renewal or cancellation) beside
// its credit balance, with the way into Stripe's Customer Portal when the account has one.

export function CurrentPlanCard({
  overview,
  redirect,
  refreshing,
}: {
  overview: BillingOverview;
  redirect: BillingRedirect;
  refreshing: boolean;
}) {
  const { summary } = overview;
  const blocked = purchaseBlockedReason(overview, undefined);
  const showPortal = overview.managedBy === "stripe" || overview.hasStripeCustomer;

  return (
    <Card role="region" aria-label="Current plan" className={cn("transition-opacity", refreshing && "opacity-90")}>
      <div className="grid divide-y divide-zinc-200 md:grid-cols-[1fr_18rem] md:divide-x md:divide-y-0">
        <div className="space-y-4 p-5 sm:p-6">
          <div className="space-y-1">
            <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Current plan</p>
            <div className="flex flex-wrap items-center gap-2.5">
              <h2 className="text-2xl font-semibold tracking-tight text-zinc-900" data-testid="current-plan">
                {planLabel(summary.billing_plan)}
              </h2>
              <SubscriptionStatusBadge status={summary.billing_subscription_status} />
              {overview.interval && (
                <span className="text-sm text-zinc-500">Billed {overview.interval === "year" ? "yearly" : "monthly"}</span>
              )}
            </div>
          </div>
          <PlanPeriod overview={overview} />
          {overview.managedBy === "contract" && (
            <p className="flex items-start gap-2 text-sm text-zinc-600">
              <FileSignature className="mt-0.5 size-4 shrink-0 text-zinc-400" aria-hidden />
              This plan is set by contract: each period&apos;s credits are added automatically. To change it, contact your Darkroom
              operator.
            </p>
          )}
        </div>
        <div className="flex flex-col justify-center gap-1 bg-zinc-50/60 p-5 sm:p-6 md:rounded-r-lg">
          <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">Credit balance</p>
          <p className="text-3xl font-semibold tracking-tight text-zinc-900 tabular-nums" data-testid="credit-balance">
            {formatCredits(summary.billing_credit_balance)}
          </p>
          <p className="text-xs text-zinc-500">credits · 1 credit = 1 USD</p>
        </div>
      </div>
      {showPortal && (
        <CardFooter className="flex-wrap justify-between">
          <p className="text-xs">Payment method, invoices, plan changes and cancellation are handled by Stripe.</p>
          <Button
            variant="secondary"
            size="sm"
            loading={redirect.openPortal.isPending}
            disabled={!portalAvailable(overview) || blocked !== null || redirect.leaving}
            title={blocked ?? undefined}
            onClick={() => redirect.openPortal.mutate({ accountId: summary.account_id })}
          >
            Manage billing
            <ExternalLink aria-hidden />
          </Button>
        </CardFooter>
      )}
    </Card>
  );
}

function PlanPeriod({ overview }: { overview: BillingOverview }) {
  const { summary } = overview;
  if (summary.billing_plan === "free" && summary.billing_subscription_status === "none") {
    return (
      <p className="text-sm text-zinc-600">
        Free includes a one-time welcome credit. Subscribe to a plan below for credits every month or year and higher limits.
      </p>
    );
  }
  if (!summary.billing_period_starts_at || !summary.billing_period_ends_at) {
    return <p className="text-sm text-zinc-600">Set by an operator, without a billing period.</p>;
  }
  const ends = formatBillingDate(summary.billing_period_ends_at);
  const ended = summary.billing_subscription_status === "canceled" || summary.billing_subscription_status === "incomplete_expired";
  return (
    <div className="space-y-1 text-sm">
      <p className="text-zinc-600">
        Current period <span className="text-zinc-900 tabular-nums">{formatBillingDate(summary.billing_period_starts_at)}</span> –{" "}
        <span className="text-zinc-900 tabular-nums">{ends}</span>
      </p>
      {ended ? null : summary.billing_cancel_at_period_end ? (
        <p className="flex items-center gap-1.5 font-medium text-amber-700">
          <CalendarClock className="size-4" aria-hidden />
          Cancels on {ends}
        </p>
      ) : (
        <p className="flex items-center gap-1.5 text-zinc-600">
          <CalendarClock className="size-4 text-zinc-400" aria-hidden />
          Renews on {ends}
        </p>
      )}
    </div>
  );
}
