"use client";

import { useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import Link from "next/link";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { GenerationStatusBadge } from "@/components/generations/generation-status-badge";
import { useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, EmptyState, RelativeTime, Skeleton, cn } from "@/components/ui";

// The signed-in user's recent runs from the playground, newest first; each reopens on its model's
// page with its settings back in the form.

export function RunHistory({ currentRunId }: { currentRunId: string | null }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const history = useQuery(trpc.playground.history.queryOptions({ accountId, comparisons: false }));
  return (
    <Card role="region" aria-label="Your recent runs">
      <CardHeader title="Your recent runs" />
      <QueryStates query={history} subject="Your runs" loading={<Skeleton className="m-4 h-20" />}>
        {(runs) =>
          runs.length === 0 ? (
            <EmptyState icon={History} className="py-6" title="No runs yet" description="Runs you start here are kept for you to reopen." />
          ) : (
            <ul className="max-h-72 divide-y divide-zinc-100 overflow-y-auto">
              {runs.map((run) => (
                <li key={run.generation_id}>
                  <Link
                    href={`/dashboard/${accountId}/models/${run.model_identifier}?run=${run.generation_id}`}
                    aria-current={run.generation_id === currentRunId ? "true" : undefined}
                    className={cn(
                      "flex items-center gap-3 px-5 py-2.5 outline-none hover:bg-zinc-50 focus-visible:bg-zinc-50",
                      run.generation_id === currentRunId && "bg-zinc-50",
                    )}
                  >
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm text-zinc-900">{run.prompt ?? "(no prompt)"}</span>
                      <span className="block truncate font-mono text-xs text-zinc-500">{run.model_identifier}</span>
                    </span>
                    <span className="flex shrink-0 flex-col items-end gap-1">
                      <GenerationStatusBadge status={run.status} removed={run.removed} />
                      <RelativeTime date={run.created_at} className="text-xs text-zinc-500" />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )
        }
      </QueryStates>
    </Card>
  );
}
