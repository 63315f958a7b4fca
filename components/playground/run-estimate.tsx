import { TriangleAlert } from "lucide-react";
import { formatCredits } from "@/components/dashboard/format-credits";
import { Skeleton } from "@/components/ui";
import type { RunEstimate } from "./playground-types";

// The price of the request the form holds and what the balance and spend limits leave; when Run
// would be refused, the reason, which the Run button points at (aria-describedby).

export function RunEstimateSummary({
  estimate,
  refusalId,
  stale,
}: {
  estimate: RunEstimate | undefined;
  refusalId: string;
  stale: boolean;
}) {
  if (!estimate) return <Skeleton className="h-16" />;
  return (
    <div className="space-y-3" aria-busy={stale || undefined}>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3" role="status" aria-label="Estimate">
        <div>
          <dt className="text-xs text-zinc-500">Estimated cost</dt>
          <dd className="font-semibold text-zinc-900 tabular-nums" data-estimate-total>
            {formatCredits(estimate.cost_total)} credits
          </dd>
          {estimate.assets_count > 1 && (
            <dd className="text-xs text-zinc-500 tabular-nums">{`${estimate.assets_count} × ${formatCredits(estimate.cost_per_generation)}`}</dd>
          )}
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Balance</dt>
          <dd className="font-medium text-zinc-900 tabular-nums">{formatCredits(estimate.credit_balance)} credits</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-500">Spend limits leave</dt>
          <dd className="font-medium text-zinc-900 tabular-nums">
            {estimate.spend_remaining === null ? "No limit" : `${formatCredits(estimate.spend_remaining)} credits`}
          </dd>
        </div>
      </dl>
      {estimate.refusal && !stale && (
        <p
          id={refusalId}
          role="alert"
          className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span className="min-w-0 break-words">{estimate.refusal}</span>
        </p>
      )}
    </div>
  );
}
