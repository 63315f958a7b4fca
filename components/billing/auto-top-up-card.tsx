"use client";

import { useQuery } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Badge, Button, Card, CardBody, CardHeader, Skeleton } from "@/components/ui";
import { autoTopUpState, pauseReasonText, type AutoTopUpState } from "./auto-top-up-format";
import { AutoTopUpSettings } from "./auto-top-up-settings";
import type { AutoTopUpView, BillingCatalog, BillingOverview } from "./billing-types";

// Auto top-up on the billing page: below a threshold, buy a credit pack with the card saved for it,
// at most a monthly cap. The primary owner sets it (saving without a card goes through Stripe's
// Checkout in setup mode, which turns it on); everyone else reads it.

const looks: Record<AutoTopUpState, { tone: "green" | "neutral" | "amber"; label: string }> = {
  on: { tone: "green", label: "On" },
  off: { tone: "neutral", label: "Off" },
  paused: { tone: "amber", label: "Paused" },
};

function StateBadge({ view }: { view: AutoTopUpView }) {
  const state = autoTopUpState(view);
  const look = looks[state];
  const reason = state === "paused" ? `Paused: ${pauseReasonText(view.pause_reason)}` : undefined;
  return (
    <Badge tone={look.tone} dot title={reason} data-testid="auto-top-up-state">
      {look.label}
    </Badge>
  );
}

export function AutoTopUpCard({ overview, catalog }: { overview: BillingOverview; catalog: BillingCatalog }) {
  const trpc = useTRPC();
  const accountId = overview.summary.account_id;
  const setting = useQuery(trpc.billing.autoTopUp.queryOptions({ accountId }));

  return (
    <Card role="region" aria-label="Auto top-up">
      <CardHeader
        title="Auto top-up"
        description="Never run dry mid-job: when the balance runs low, a credit pack is bought with your saved card, up to a monthly cap."
        className="flex-wrap"
        actions={setting.data && <StateBadge view={setting.data} />}
      />
      {setting.isPending ? (
        <CardBody className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" aria-hidden>
          <div className="space-y-4">
            <Skeleton className="h-9 w-full max-w-lg" />
            <Skeleton className="h-3 w-40" />
            <Skeleton className="h-9 w-48" />
          </div>
          <Skeleton className="h-36 w-full rounded-lg" />
        </CardBody>
      ) : setting.isError ? (
        <CardBody className="flex flex-wrap items-center justify-between gap-4">
          <p className="text-sm text-red-600">Auto top-up could not be loaded: {errorMessage(setting.error)}</p>
          <Button variant="secondary" size="sm" onClick={() => void setting.refetch()}>
            Try again
          </Button>
        </CardBody>
      ) : (
        <AutoTopUpSettings view={setting.data} overview={overview} catalog={catalog} />
      )}
    </Card>
  );
}
