import { CreditCard } from "lucide-react";
import { cn } from "@/components/ui";
import { cardBrandLabel, cardBrandMark, cardExpiry, cardExpiryState, formatUsd } from "./auto-top-up-format";
import { formatBillingDate } from "./billing-format";
import type { AutoTopUpView } from "./billing-types";

// The side of the auto top-up card: the saved card (brand, last four, expiry), and what top-ups spent this calendar month (UTC) against the cap.

export function SavedCard({ view }: { view: AutoTopUpView }) {
  const card = view.card;
  if (!card) {
    return (
      <div className="flex items-start gap-3">
        <span className="flex h-8 w-12 shrink-0 items-center justify-center rounded-md border border-dashed border-zinc-300 bg-white">
          <CreditCard className="size-4 text-zinc-400" aria-hidden />
        </span>
        <div className="min-w-0">
          <p className="text-sm font-medium text-zinc-900">No card saved</p>
          <p className="text-xs text-zinc-500">Saving takes you to Stripe to add the card top-ups are charged to.</p>
        </div>
      </div>
    );
  }
  const expiry = cardExpiry(card);
  const expiryState = cardExpiryState(card);
  return (
    <div className="flex items-center gap-3" data-testid="auto-top-up-card">
      <span
        aria-hidden
        className="flex h-8 w-12 shrink-0 items-center justify-center rounded-md bg-gradient-to-br from-zinc-800 to-zinc-950 text-[10px] font-bold tracking-wider text-white shadow-xs"
      >
        {cardBrandMark(card.brand)}
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium whitespace-nowrap text-zinc-900 tabular-nums">
          {cardBrandLabel(card.brand)} <span className="tracking-wider text-zinc-400">••••</span> {card.last4}
        </p>
        {expiry && (
          <p
            className={cn(
              "text-xs tabular-nums",
              expiryState === "expired" ? "font-medium text-red-600" : expiryState === "expiring" ? "text-amber-700" : "text-zinc-500",
            )}
          >
            {expiryState === "expired" ? "Expired" : "Expires"} {expiry}
          </p>
        )}
      </div>
    </div>
  );
}

/** 1 January next year, 1 March…: when this month's cap starts over (UTC). */
function nextMonthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

export function MonthlySpending({ view }: { view: AutoTopUpView }) {
  const spent = view.spent_this_month;
  const cap = view.monthly_cap;
  if (cap === null) {
    return (
      <p className="text-xs text-zinc-500">
        <span className="font-medium text-zinc-700 tabular-nums">{formatUsd(spent, view.currency)}</span> spent on top-ups this month · no
        cap set yet
      </p>
    );
  }
  const share = cap > 0 ? Math.min(1, spent / cap) : 1;
  const percent = Math.round(share * 100);
  const price = view.pack_price;
  // What is left of the cap, in whole packs (a cent of slack for the float).
  const room = price && price > 0 ? Math.max(0, Math.floor((cap - spent) / price + 0.001)) : null;
  const tone = room === 0 ? "bg-amber-500" : share >= 0.8 ? "bg-amber-400" : "bg-zinc-900";
  const text = `${formatUsd(spent, view.currency)} of ${formatUsd(cap, view.currency)} this month`;
  return (
    <div className="space-y-1.5">
      <p className="flex items-baseline justify-between gap-2 text-xs text-zinc-600">
        <span data-testid="auto-top-up-spending">
          <span className="font-medium text-zinc-900 tabular-nums">{formatUsd(spent, view.currency)}</span> of{" "}
          <span className="tabular-nums">{formatUsd(cap, view.currency)}</span> this month
        </span>
        <span className="text-zinc-400 tabular-nums">{percent} %</span>
      </p>
      <div
        role="progressbar"
        aria-label="Auto top-up spending against the monthly cap"
        aria-valuemin={0}
        aria-valuemax={cap}
        aria-valuenow={spent}
        aria-valuetext={text}
        className="h-1.5 overflow-hidden rounded-full bg-zinc-200/70"
      >
        <div className={cn("h-full rounded-full transition-[width]", tone)} style={{ width: `${Math.max(percent, spent > 0 ? 2 : 0)}%` }} />
      </div>
      <p className="text-xs text-zinc-500">
        {room === null
          ? `Starts over on ${formatBillingDate(nextMonthStart())}.`
          : room === 0
            ? `Cap reached: top-ups start again on ${formatBillingDate(nextMonthStart())}.`
            : `Room for ${room} more top-up${room === 1 ? "" : "s"} of ${formatUsd(price!, view.currency)}; starts over on ${formatBillingDate(nextMonthStart())}.`}
      </p>
    </div>
  );
}
