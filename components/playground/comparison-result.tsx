"use client";

import { useQuery } from "@tanstack/react-query";
import { Trophy } from "lucide-react";
import { useAccount } from "@/components/dashboard/account-context";
import { formatCredits } from "@/components/dashboard/format-credits";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { Badge, Card, CardBody, CardHeader, cn, Skeleton } from "@/components/ui";
import type { ComparisonView } from "./playground-types";
import { RunBody } from "./run-result";
import { formatDuration } from "./run-progress";

/** As many grid columns as the comparison has, from 1280 px (Tailwind needs the class names whole). */
export const columnGrid: Record<number, string> = { 1: "xl:grid-cols-1", 2: "xl:grid-cols-2", 3: "xl:grid-cols-3", 4: "xl:grid-cols-4" };

// A comparison's columns side by side, live from the account's feed, with their figures and a
// summary of which column was fastest and which cheapest once they succeeded.

export function ComparisonResult({ comparisonId, canRun }: { comparisonId: string; canRun: boolean }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const comparison = useQuery(trpc.playground.comparison.queryOptions({ accountId, comparisonId }));
  return (
    <QueryStates query={comparison} subject="The comparison" placement="page" loading={<Skeleton className="h-64" />}>
      {(data) => <ComparisonColumns comparison={data} canRun={canRun} />}
    </QueryStates>
  );
}

function ComparisonColumns({ comparison, canRun }: { comparison: ComparisonView; canRun: boolean }) {
  const name = (generationId: string | null) => {
    const index = comparison.columns.findIndex((column) => column.generation_id === generationId);
    const column = comparison.columns[index];
    return column
      ? `Column ${index + 1} (${column.model_identifier}${column.view.record.generation_provider_used ? ` on ${column.view.record.generation_provider_used}` : ""})`
      : null;
  };
  // A tie names every column at the best value.
  const named = (ids: string[]) => (ids.length === 0 ? null : `${ids.length > 1 ? "Tie: " : ""}${ids.map(name).join(", ")}`);
  const fastest = named(comparison.summary.fastest);
  const cheapest = named(comparison.summary.cheapest);
  const isFastest = (id: string | null) => id !== null && comparison.summary.fastest.includes(id);
  const isCheapest = (id: string | null) => id !== null && comparison.summary.cheapest.includes(id);
  return (
    <section aria-label="Comparison" className="space-y-4" data-comparison={comparison.comparison_id} data-finished={comparison.finished}>
      <Card role="region" aria-label="Summary">
        <CardBody className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
          <p className="flex items-center gap-2" data-summary="fastest">
            <Trophy className="size-4 text-amber-500" aria-hidden />
            Fastest:{" "}
            <span className="font-medium text-zinc-900">{fastest ?? (comparison.finished ? "no column succeeded" : "running…")}</span>
          </p>
          <p className="flex items-center gap-2" data-summary="cheapest">
            <Trophy className="size-4 text-amber-500" aria-hidden />
            Cheapest:{" "}
            <span className="font-medium text-zinc-900">{cheapest ?? (comparison.finished ? "no column succeeded" : "running…")}</span>
          </p>
        </CardBody>
      </Card>
      <ol className={cn("grid gap-4 md:grid-cols-2", columnGrid[comparison.columns.length])} aria-label="Results">
        {comparison.columns.map((column, index) => (
          <li key={column.generation_id} data-result-column={index + 1}>
            <Card className="h-full">
              <CardHeader
                title={`Column ${index + 1}`}
                description={<span className="font-mono text-xs break-all">{column.model_identifier}</span>}
              >
                {(isFastest(column.generation_id) || isCheapest(column.generation_id)) && (
                  <p className="flex gap-1.5 pt-1">
                    {isFastest(column.generation_id) && <Badge tone="green">Fastest</Badge>}
                    {isCheapest(column.generation_id) && <Badge tone="blue">Cheapest</Badge>}
                  </p>
                )}
              </CardHeader>
              <CardBody className="space-y-4">
                <RunBody run={column.view} canRun={canRun} compact />
                <dl className="grid grid-cols-2 gap-2 text-sm">
                  <Figure
                    label="Provider"
                    value={column.view.record.generation_provider_used ?? `${column.view.record.generation_provider_order.join(", ")}`}
                  />
                  <Figure
                    label="Cost"
                    value={
                      column.view.cost_charged === null
                        ? `${formatCredits(column.view.estimated_cost)} reserved`
                        : `${formatCredits(column.view.cost_charged)} credits`
                    }
                  />
                  <Figure label="First attempt after" value={formatDuration(column.view.time_to_first_attempt_ms)} />
                  <Figure label="Total time" value={formatDuration(column.view.total_time_ms)} />
                </dl>
              </CardBody>
            </Card>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div data-figure={label}>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="font-medium break-words text-zinc-900 tabular-nums">{value}</dd>
    </div>
  );
}
