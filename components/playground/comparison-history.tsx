"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, RelativeTime, Skeleton, cn } from "@/components/ui";

// The signed-in user's recent comparisons (their first column stands for each), reopenable.

export function ComparisonHistory({ currentId }: { currentId: string | null }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const history = useQuery(trpc.playground.history.queryOptions({ accountId, comparisons: true }));
  return (
    <QueryStates query={history} subject="Your comparisons" loading={<Skeleton className="h-20" />}>
      {(runs) =>
        runs.length === 0 ? null : (
          <Card role="region" aria-label="Your recent comparisons">
            <CardHeader title="Your recent comparisons" />
            <ul className="divide-y divide-zinc-100">
              {runs.map((run) => (
                <li key={run.generation_id}>
                  <Link
                    href={`/dashboard/${accountId}/compare?comparison=${run.comparison_id ?? ""}`}
                    aria-current={run.comparison_id === currentId ? "true" : undefined}
                    className={cn(
                      "flex items-center justify-between gap-3 px-5 py-2.5 text-sm outline-none hover:bg-zinc-50 focus-visible:bg-zinc-50",
                      run.comparison_id === currentId && "bg-zinc-50",
                    )}
                  >
                    <span className="min-w-0 truncate text-zinc-900">{run.prompt ?? "(no prompt)"}</span>
                    <RelativeTime date={run.created_at} className="shrink-0 text-xs text-zinc-500" />
                  </Link>
                </li>
              ))}
            </ul>
          </Card>
        )
      }
    </QueryStates>
  );
}
