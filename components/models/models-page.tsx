"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Boxes, SearchX } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { Card, cn, EmptyState, PageHeader, Skeleton } from "@/components/ui";
import { ModelCard } from "./model-card";
import { ModelFilterBar } from "./model-filter-bar";
import { filtersToSearch, isFiltered, listInput, readModelFilters, type ModelFilterState } from "./model-filters";

// The Models page: the catalog as cards, filtered from the URL. Provider health is re-read every
// half minute, so the dots follow the providers without a reload.

export const HEALTH_REFRESH_MS = 30_000;

export function ModelsPage() {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const filters = readModelFilters(useSearchParams());
  const list = useQuery({
    ...trpc.models.list.queryOptions(listInput(accountId, filters)),
    placeholderData: keepPreviousData,
    refetchInterval: HEALTH_REFRESH_MS,
  });

  // The URL is the state: replaceState keeps Next's searchParams in step without a server round trip.
  const setFilters = (next: ModelFilterState) =>
    window.history.replaceState(null, "", `${window.location.pathname}${filtersToSearch(next)}`);

  return (
    <div className="space-y-8">
      <PageHeader
        title="Models"
        description="Every model this deployment sells, its price, how long it typically takes and how its providers are doing. Open one for what its create accepts."
      />
      <Card>
        <ModelFilterBar filters={filters} facets={list.data?.facets} onChange={setFilters} />
        <QueryStates
          query={list}
          subject="The models"
          loading={
            <div className="grid gap-4 p-5 sm:grid-cols-2 lg:grid-cols-3">
              {Array.from({ length: 6 }, (_, index) => (
                <Skeleton key={index} className="h-44" />
              ))}
            </div>
          }
        >
          {(data) =>
            data.models.length === 0 ? (
              isFiltered(filters) ? (
                <EmptyState
                  icon={SearchX}
                  className="py-16"
                  title="No models match these filters"
                  description="Try another type, workflow, provider or price, or a shorter search."
                />
              ) : (
                <EmptyState
                  icon={Boxes}
                  className="py-16"
                  title="No models in the catalog"
                  description="This deployment's catalog is empty."
                />
              )
            ) : (
              <div className={cn("transition-opacity", list.isPlaceholderData && "opacity-60")}>
                <div className="grid gap-3 p-3 sm:grid-cols-2 sm:gap-4 sm:p-5 lg:grid-cols-3">
                  {data.models.map((model) => (
                    <ModelCard key={model.entry.model_identifier} accountId={accountId} model={model} />
                  ))}
                </div>
                <p className="border-t border-zinc-200 px-5 py-3 text-xs text-zinc-500 tabular-nums" role="status">
                  {data.models.length === data.catalog_total
                    ? `${data.catalog_total} models`
                    : `${data.models.length} of ${data.catalog_total} models`}
                </p>
              </div>
            )
          }
        </QueryStates>
      </Card>
    </div>
  );
}
