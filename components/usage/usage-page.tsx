"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Activity, BarChart3, Coins, FileDown, Images, TriangleAlert } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { ExportDialog, utcDaysAgo } from "@/components/exports/export-dialog";
import { formatCredits } from "@/components/dashboard/format-credits";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Card, CardBody, CardHeader, cn, EmptyState, PageHeader, Skeleton, Stat } from "@/components/ui";
import { RequestsChart, SpendChart } from "./usage-charts";
import { readUsageRange, usageRanges, type UsageRange } from "./usage-range";
import { EndpointsTable, ProvidersTable } from "./usage-tables";

// The usage page: the figures of GET /v1/usage for the last 1, 7, 30 or 90 days (the same domain
// function computes both), per-day charts of the same window, and the per-endpoint and
// per-provider tables.

const rangeLabels: Record<UsageRange, string> = { 1: "24 hours", 7: "7 days", 30: "30 days", 90: "90 days" };

const exportFormats = [
  { value: "csv", label: "CSV: day × key × model × provider" },
  { value: "focus", label: "FinOps FOCUS 1.0 (credits as USD)" },
] as const;

export function UsagePage() {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const days = readUsageRange(useSearchParams().get("days"));
  const usage = useQuery({ ...trpc.usage.summary.queryOptions({ accountId, days }), placeholderData: keepPreviousData });
  const [exporting, setExporting] = useState<"csv" | "focus" | null>(null);
  const setDays = (next: UsageRange) =>
    window.history.replaceState(null, "", `${window.location.pathname}${next === 30 ? "" : `?days=${next}`}`);

  const summary = usage.data?.summary;
  const successRate =
    summary && summary.usage_total_requests > 0
      ? `${Math.round((summary.usage_total_success / summary.usage_total_requests) * 100)} % succeeded`
      : "No requests";
  const stat = (value: string | undefined, width = "w-16") => value ?? <Skeleton className={cn("h-7", width)} />;

  return (
    <div className="space-y-8">
      <PageHeader
        title="Usage"
        description={`API requests, generations and estimated spend: the figures GET /v1/usage returns for the same range${usage.data ? `, in this deployment's region (${usage.data.region})` : ""}.`}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" size="sm" onClick={() => setExporting("csv")}>
              <FileDown aria-hidden />
              Export CSV
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setExporting("focus")}>
              <FileDown aria-hidden />
              Export FOCUS
            </Button>
            <div role="group" aria-label="Range" className="inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
              {usageRanges.map((range) => (
                <button
                  key={range}
                  type="button"
                  aria-pressed={days === range}
                  onClick={() => setDays(range)}
                  className={cn(
                    "rounded px-2.5 py-1.5 text-xs font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-zinc-900/10",
                    days === range ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-500 hover:text-zinc-900",
                  )}
                >
                  {rangeLabels[range]}
                </button>
              ))}
            </div>
          </div>
        }
      />
      <ExportDialog
        open={exporting !== null}
        onOpenChange={(open) => !open && setExporting(null)}
        title="Export usage"
        description={`One row per UTC day, API key, model and provider of this region's generations${usage.data ? ` (${usage.data.region})` : ""}, streamed as a CSV file. The range may reach back as far as the plan keeps generation records.`}
        route="/api/usage/export"
        accountId={accountId}
        formats={exportFormats}
        format={exporting ?? "csv"}
        defaultFrom={utcDaysAgo(days - 1)}
      />

      {usage.isError ? (
        <Card>
          <CardBody className="flex items-center justify-between gap-4">
            <p className="text-sm text-red-600">Usage could not be loaded: {errorMessage(usage.error)}</p>
            <Button variant="secondary" size="sm" onClick={() => usage.refetch()}>
              Try again
            </Button>
          </CardBody>
        </Card>
      ) : (
        <div className={cn("space-y-8 transition-opacity", usage.isPlaceholderData && "opacity-60")}>
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Stat
              label="API requests"
              icon={Activity}
              value={stat(summary?.usage_total_requests.toLocaleString("en"))}
              hint={summary ? successRate : " "}
            />
            <Stat
              label="Errors"
              icon={TriangleAlert}
              value={stat(
                summary ? (summary.usage_total_client_errors + summary.usage_total_server_errors).toLocaleString("en") : undefined,
              )}
              hint={summary ? `${summary.usage_total_client_errors} client · ${summary.usage_total_server_errors} server` : " "}
            />
            <Stat
              label="Generations"
              icon={Images}
              value={stat(summary?.usage_total_generations.toLocaleString("en"))}
              hint={summary ? `${summary.usage_total_provider_submissions} provider submissions` : " "}
            />
            <Stat
              label="Estimated spend"
              icon={Coins}
              value={stat(summary ? formatCredits(summary.usage_total_estimated_cost) : undefined, "w-20")}
              hint={summary ? `Balance ${formatCredits(summary.usage_credit_balance)} credits` : " "}
            />
          </div>

          {usage.isPending ? (
            <Skeleton className="h-80 w-full" />
          ) : summary && summary.usage_total_requests === 0 && summary.usage_total_generations === 0 ? (
            <Card>
              <EmptyState
                icon={BarChart3}
                className="py-16"
                title={`No API traffic in the last ${rangeLabels[days]}`}
                description="Requests made with this account's API keys are counted here: per day, per endpoint and per provider. Try a longer range, or make a request."
              />
            </Card>
          ) : (
            <>
              <div className="grid gap-6 xl:grid-cols-2">
                <Card role="region" aria-label="Requests per day">
                  <CardHeader title="Requests" description="Per day by outcome (UTC days)" />
                  <CardBody>
                    <RequestsChart data={usage.data.daily} days={days} />
                  </CardBody>
                </Card>
                <Card role="region" aria-label="Spend per day">
                  <CardHeader title="Estimated spend" description="Credits per day: charged, or still reserved for generations in flight" />
                  <CardBody>
                    <SpendChart data={usage.data.daily} days={days} />
                  </CardBody>
                </Card>
              </div>

              <Card role="region" aria-label="Endpoints">
                <CardHeader title="Endpoints" description="Requests per /v1 route, with the error codes they answered" />
                {usage.data.summary.usage_endpoints.length === 0 ? (
                  <EmptyState icon={Activity} className="py-8" title="No API requests in this range" />
                ) : (
                  <EndpointsTable endpoints={usage.data.summary.usage_endpoints} />
                )}
              </Card>

              <Card role="region" aria-label="Providers">
                <CardHeader
                  title="Providers"
                  description="Submissions per inference provider; wasted cost was billed for work that was thrown away"
                />
                {usage.data.summary.usage_providers.length === 0 ? (
                  <EmptyState icon={Images} className="py-8" title="No provider submissions in this range" />
                ) : (
                  <ProvidersTable providers={usage.data.summary.usage_providers} />
                )}
              </Card>
            </>
          )}
        </div>
      )}
    </div>
  );
}
