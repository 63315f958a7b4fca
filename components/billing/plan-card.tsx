"use client";

import { Check } from "lucide-react";
import { Badge, Button, cn } from "@/components/ui";
import { planLimits } from "@/server/plans/plan-limits";
import { formatMoney, planLabel } from "./billing-format";
import type { BillingInterval, CatalogPlan } from "./billing-types";

// One plan at the chosen interval: its price, the credits each period brings, its limits, and
// one button (Checkout, or the Customer Portal when the account already subscribes).

const pitches: Record<CatalogPlan["plan"], string> = {
  starter: "For prototypes and side projects.",
  pro: "For products running in production.",
  scale: "For high-volume pipelines and teams.",
  enterprise: "For contracts and custom hostnames.",
};

export type PlanAction = { label: string; onClick: () => void; disabled: boolean; reason: string | null; pending: boolean };

function retentionLabel(seconds: number): string {
  const days = Math.round(seconds / 86_400);
  return days >= 365 ? "1 year of history" : `${days} days of history`;
}

export function PlanCard({
  plan,
  interval,
  current,
  action,
}: {
  plan: CatalogPlan;
  interval: BillingInterval;
  current: boolean;
  action: PlanAction;
}) {
  const offer = plan.intervals.find((entry) => entry.interval === interval) ?? plan.intervals[0]!;
  const limits = planLimits[plan.plan];
  const features = [
    `${limits.requestsPerMinute.generation} generation requests / min`,
    `${limits.concurrency.image} images, ${limits.concurrency.video} videos at once`,
    retentionLabel(limits.retention.generations),
  ];
  const name = planLabel(plan.plan);

  return (
    <article
      aria-label={`${name} plan`}
      className={cn(
        "flex flex-col rounded-lg border bg-white p-5 shadow-xs",
        current ? "border-zinc-900 ring-1 ring-zinc-900" : "border-zinc-200",
        plan.plan === "pro" && !current && "border-zinc-300",
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-zinc-900">{name}</h3>
        {current ? <Badge tone="green">Current plan</Badge> : plan.plan === "pro" ? <Badge tone="blue">Popular</Badge> : null}
      </div>
      <p className="mt-1 text-sm text-zinc-500 xl:min-h-10">{pitches[plan.plan]}</p>
      <p className="mt-4 flex items-baseline gap-1">
        <span className="text-3xl font-semibold tracking-tight text-zinc-900 tabular-nums">
          {formatMoney(offer.price.amountCents, offer.price.currency)}
        </span>
        <span className="text-sm text-zinc-500">/ {interval}</span>
      </p>
      <p className="mt-1 text-sm font-medium text-zinc-700 tabular-nums">
        {Number(offer.credits).toLocaleString("en")} credits / {interval}
      </p>
      <ul className="mt-4 flex-1 space-y-1.5 text-[13px] text-zinc-600">
        {features.map((feature) => (
          <li key={feature} className="flex items-start gap-2">
            <Check className="mt-0.5 size-3.5 shrink-0 text-zinc-400" aria-hidden />
            {feature}
          </li>
        ))}
      </ul>
      {/* A disabled button gets no pointer events, so its reason sits on the wrapper. */}
      <div className="mt-5" title={action.reason ?? undefined}>
        <Button
          className="w-full"
          variant={plan.plan === "pro" && !current ? "primary" : "secondary"}
          disabled={action.disabled}
          loading={action.pending}
          title={action.reason ?? undefined}
          onClick={action.onClick}
        >
          {action.label}
        </Button>
      </div>
    </article>
  );
}
