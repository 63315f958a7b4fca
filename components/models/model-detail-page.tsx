"use client";

import { useQuery } from "@tanstack/react-query";
import { useAccount } from "@/components/dashboard/account-context";
import { DetailHeader } from "@/components/dashboard/detail-header";
import { DetailPageStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { BackLink, Badge, Card, Skeleton } from "@/components/ui";
import { CreateFieldsCard } from "./create-fields-card";
import { ModelExampleFigure } from "./model-example";
import { formatSeconds, listPrice } from "./model-format";
import { ModelNotFound } from "./model-not-found";
import { ModelProvidersCard } from "./model-providers-card";
import { ModelStatusBadge, statusExplanation } from "./model-status-badge";
import { HEALTH_REFRESH_MS } from "./models-page";
import { PricingCard } from "./pricing-card";
import { PlaygroundPanel } from "@/components/playground/playground-panel";

// One model: what its create accepts, what it costs, its providers with their health, and the
// playground to run it.

export function ModelDetailPage({ identifier, apiBaseUrl }: { identifier: string; apiBaseUrl: string }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const model = useQuery({ ...trpc.models.get.queryOptions({ accountId, identifier }), refetchInterval: HEALTH_REFRESH_MS });
  const backLink = <BackLink href={`/dashboard/${accountId}/models`}>Models</BackLink>;

  if (!model.isSuccess) {
    return (
      <DetailPageStates
        backLink={backLink}
        query={model}
        subject="The model"
        loading={
          <>
            <div className="space-y-3">
              <Skeleton className="h-7 w-72 max-w-full" />
              <Skeleton className="h-4 w-48" />
            </div>
            <Skeleton className="h-24" />
            <Skeleton className="h-72" />
          </>
        }
        notFound={<ModelNotFound accountId={accountId} />}
      />
    );
  }

  const data = model.data;
  const { entry } = data;
  const explanation = statusExplanation[entry.model_status];
  const available = data.providers.filter((provider) => provider.available).length;
  return (
    <div className="space-y-8">
      <DetailHeader
        backLink={backLink}
        heading={
          <>
            <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-zinc-900">{entry.model_name}</h1>
            <ModelStatusBadge status={entry.model_status} />
            <Badge tone="blue">{entry.model_type === "image" ? "Image" : "Video"}</Badge>
          </>
        }
        subheading={
          <div className="space-y-2">
            <p className="font-mono text-sm break-all text-zinc-500">{entry.model_identifier}</p>
            <ul className="flex flex-wrap gap-1.5" aria-label="Workflows">
              {entry.model_workflows.map((workflow) => (
                <li
                  key={workflow}
                  className="rounded-full border border-zinc-200 bg-zinc-50 px-2.5 py-0.5 text-xs font-medium text-zinc-700"
                >
                  {workflow}
                </li>
              ))}
            </ul>
          </div>
        }
        actions={null}
      >
        {explanation && <p className="rounded-md border border-zinc-200 bg-zinc-50 px-4 py-3 text-sm text-zinc-600">{explanation}</p>}
      </DetailHeader>

      <Card>
        <dl className="grid divide-y divide-zinc-100 sm:grid-cols-3 sm:divide-x sm:divide-y-0">
          <Fact
            label="Price"
            value={listPrice(entry)}
            hint={entry.model_type === "image" ? "At the default ratio" : "At the default resolution, without audio"}
          />
          <Fact
            label="Typical run"
            value={data.typical_run_seconds === null ? "No recent runs" : formatSeconds(data.typical_run_seconds)}
            hint="Median of recent successful runs"
          />
          <Fact label="Providers available" value={`${available} of ${data.providers.length}`} hint="Configured and not failing" />
        </dl>
      </Card>

      {data.example && <ModelExampleFigure example={data.example} modelName={entry.model_name} />}
      <CreateFieldsCard model={data} />
      <PricingCard breakdown={entry.model_pricing_breakdown} />
      <ModelProvidersCard providers={data.providers} />
      {entry.model_status === "active" && <PlaygroundPanel model={data} apiBaseUrl={apiBaseUrl} />}
    </div>
  );
}

function Fact({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div className="px-5 py-4">
      <dt className="text-xs font-medium text-zinc-500">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tracking-tight text-zinc-900 tabular-nums">{value}</dd>
      <dd className="text-xs text-zinc-500">{hint}</dd>
    </div>
  );
}
