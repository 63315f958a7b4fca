"use client";

import { cn, RelativeTime } from "@/components/ui";

// Used against limit, as a bar: green, amber from 80 %, red at the limit. Without a limit, the
// spend alone. "Resets in …" when the period ends; `total` never resets.

export type SpendBarProps = {
  used: number;
  limit: number | null;
  resetsAt: string | null;
  /** "day", "week", "month", "total", or null without a limit. */
  period?: string | null;
  compact?: boolean;
  className?: string;
};

const credits = (value: number) => value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 3 });

const periodLabels: Record<string, string> = { day: "per day", week: "per week", month: "per month", total: "in total" };

export function SpendBar({ used, limit, resetsAt, period, compact = false, className }: SpendBarProps) {
  if (limit === null) {
    return (
      <div className={cn("text-xs text-zinc-500", className)}>
        <span className="font-medium text-zinc-700 tabular-nums">{credits(used)}</span> spent · no limit
      </div>
    );
  }
  const share = limit > 0 ? Math.min(1, used / limit) : 1;
  const percent = Math.round(share * 100);
  const tone = share >= 1 ? "bg-red-500" : share >= 0.8 ? "bg-amber-500" : "bg-emerald-500";
  return (
    <div className={cn(compact ? "w-28 space-y-1" : "w-full space-y-1.5", className)}>
      <div className={cn("flex items-baseline justify-between gap-2", compact ? "text-[11px]" : "text-xs")}>
        <span className="text-zinc-600">
          <span className="font-medium text-zinc-900 tabular-nums">{credits(used)}</span> /{" "}
          <span className="tabular-nums">{credits(limit)}</span>
          {!compact && period ? <span className="text-zinc-500"> credits {periodLabels[period] ?? ""}</span> : null}
        </span>
        {compact ? null : <span className="text-zinc-500 tabular-nums">{percent} %</span>}
      </div>
      <div
        role="progressbar"
        aria-label="Spend against the limit"
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={used}
        aria-valuetext={`${credits(used)} of ${credits(limit)} credits`}
        className="h-1.5 overflow-hidden rounded-full bg-zinc-100"
      >
        <div className={cn("h-full rounded-full transition-[width]", tone)} style={{ width: `${Math.max(percent, used > 0 ? 2 : 0)}%` }} />
      </div>
      <p className="text-xs text-zinc-500">
        {resetsAt ? (
          <>
            Resets <RelativeTime date={resetsAt} format={compact ? "short" : "long"} />
          </>
        ) : (
          "Never resets"
        )}
      </p>
    </div>
  );
}
