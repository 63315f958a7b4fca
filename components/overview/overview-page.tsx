"use client";

import { useQuery } from "@tanstack/react-query";
import { Activity, BarChart3, Coins, Globe2, Sparkles } from "lucide-react";
import { useAccount } from "@/components/dashboard/account-context";
import { formatCredits } from "@/components/dashboard/format-credits";
import { useTRPC } from "@/components/trpc/react";
import { Card, CardBody, CardHeader, EmptyState, PageHeader, RelativeTime, Skeleton, Stat } from "@/components/ui";
import { ActivityChart } from "./activity-chart";

export function OverviewPage() {
  const { accountId, name } = useAccount();
  const trpc = useTRPC();
  const account = useQuery(trpc.account.get.queryOptions({ accountId }));
  const daily = useQuery(trpc.account.dailyActivity.queryOptions({ accountId }));
  const recent = useQuery(trpc.account.recentActivity.queryOptions({ accountId }));

  const totals = (daily.data ?? []).reduce(
    (sum, day) => ({
      generations: sum.generations + day.succeeded + day.failed + day.canceled,
      succeeded: sum.succeeded + day.succeeded,
      charged: sum.charged + day.charged,
    }),
    { generations: 0, succeeded: 0, charged: 0 },
  );
  const successRate =
    totals.generations > 0 ? `${Math.round((totals.succeeded / totals.generations) * 100)} % succeeded` : "No generations yet";

  return (
    <div className="space-y-8">
      <PageHeader title={name} description="Balance, usage and what happened lately in this account." />

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label="Credit balance"
          icon={Coins}
          value={account.data ? formatCredits(account.data.creditBalance) : <Skeleton className="h-7 w-24" />}
          hint="1 credit = 1 USD"
        />
        <Stat
          label="Plan"
          icon={Sparkles}
          value={account.data ? <span className="capitalize">{account.data.plan}</span> : <Skeleton className="h-7 w-20" />}
          hint="Limits and retention follow the plan"
        />
        <Stat
          label="Generations, 30 days"
          icon={BarChart3}
          value={daily.data ? totals.generations.toLocaleString("en") : <Skeleton className="h-7 w-16" />}
          hint={daily.data ? successRate : " "}
        />
        <Stat
          label="Spent, 30 days"
          icon={Activity}
          value={daily.data ? formatCredits(totals.charged) : <Skeleton className="h-7 w-16" />}
          hint={account.data ? `Region ${account.data.region.toUpperCase()}` : " "}
        />
      </div>

      <Card>
        <CardHeader title="Generations" description="Per day, last 30 days (UTC)" />
        <CardBody>
          {daily.isPending ? (
            <Skeleton className="h-64 w-full" />
          ) : daily.isError ? (
            <p className="text-sm text-red-600">The chart could not be loaded.</p>
          ) : totals.generations === 0 ? (
            <EmptyState
              icon={BarChart3}
              title="No generations in the last 30 days"
              description="Create one with your API key: POST /v1/generate. It shows up here."
            />
          ) : (
            <ActivityChart data={daily.data} />
          )}
        </CardBody>
      </Card>

      <Card>
        <CardHeader title="Recent activity" description="The account's audit trail, newest first" />
        {recent.isPending ? (
          <CardBody className="space-y-3">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-4 w-3/5" />
          </CardBody>
        ) : recent.isError ? (
          <CardBody>
            <p className="text-sm text-red-600">Activity could not be loaded.</p>
          </CardBody>
        ) : recent.data.length === 0 ? (
          <EmptyState icon={Globe2} title="Nothing has happened yet" />
        ) : (
          <ul className="divide-y divide-zinc-100">
            {recent.data.map((event) => (
              <li key={event.id} className="flex items-center justify-between gap-4 px-5 py-3">
                <div className="min-w-0">
                  <p className="truncate text-sm text-zinc-800">{event.description}</p>
                  <p className="text-xs text-zinc-400">{event.action}</p>
                </div>
                <RelativeTime date={event.createdAt} className="shrink-0 text-xs text-zinc-500" />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
