"use client";

import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Images, SearchX } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { Button, Card, cn, EmptyState, PageHeader, Skeleton } from "@/components/ui";
import { filtersToSearch, inFlight, listInput, readGenerationFilters, type GenerationFilterState } from "./generation-filters";
import { GenerationFilterBar } from "./generation-filter-bar";
import { GenerationGallery } from "./generation-gallery";
import { GenerationsTable } from "./generations-table";

// The generations page: the account's generations as a gallery or a table, filtered from the URL,
// 24 more at a time. The account's live feed (components/dashboard/live-events.tsx) refreshes the
// list when a generation is created or moves, so one started from the API appears and turns
// succeeded (or failed) without a reload; nothing polls.

export function GenerationsPage() {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const filters = readGenerationFilters(useSearchParams());
  const models = useQuery(trpc.generations.models.queryOptions({ accountId }));
  const list = useInfiniteQuery({
    ...trpc.generations.list.infiniteQueryOptions(listInput(accountId, filters), { getNextPageParam: (page) => page.nextCursor }),
    placeholderData: keepPreviousData,
  });

  // The URL is the state: replaceState keeps Next's searchParams in step without a server round trip.
  const setFilters = (next: GenerationFilterState) =>
    window.history.replaceState(null, "", `${window.location.pathname}${filtersToSearch(next)}`);

  const generations = list.data?.pages.flatMap((page) => page.generations) ?? [];
  const live = generations.some((row) => inFlight(row.generation_status));
  const filtered = !!(filters.status || filters.model || filters.from || filters.to);

  return (
    <div className="space-y-8">
      <PageHeader
        title="Generations"
        description="Every image and video this account generated, newest first. Open one for its attempts, costs and files."
        actions={
          live ? (
            <span className="inline-flex items-center gap-2 text-xs text-zinc-500" role="status">
              <span className="size-2 animate-pulse rounded-full bg-blue-500" aria-hidden />
              Updating live
            </span>
          ) : null
        }
      />

      <Card>
        <GenerationFilterBar filters={filters} models={models.data ?? []} onChange={setFilters} />
        <QueryStates
          query={list}
          subject="The generations"
          loading={
            <div className="grid grid-cols-2 gap-3 p-3 sm:grid-cols-3 sm:gap-4 sm:p-5 lg:grid-cols-4">
              {Array.from({ length: 8 }, (_, index) => (
                <Skeleton key={index} className="aspect-square h-auto w-full" />
              ))}
            </div>
          }
        >
          {() =>
            generations.length === 0 ? (
              filtered ? (
                <EmptyState
                  icon={SearchX}
                  className="py-16"
                  title="No generations match these filters"
                  description="Try another status, model or range of days."
                />
              ) : (
                <EmptyState
                  icon={Images}
                  className="py-16"
                  title="No generations yet"
                  description="Start one with an API key: POST /v1/generate/image/darkroom/lumen-image with a generation_prompt. It shows up here while it runs."
                />
              )
            ) : (
              <div className={cn("transition-opacity", list.isPlaceholderData && "opacity-60")}>
                {filters.view === "table" ? (
                  <GenerationsTable accountId={accountId} generations={generations} />
                ) : (
                  <GenerationGallery accountId={accountId} generations={generations} />
                )}
                <div className="flex items-center justify-between gap-4 border-t border-zinc-200 px-5 py-3">
                  <p className="text-xs text-zinc-500 tabular-nums">
                    {generations.length.toLocaleString("en")} shown{list.hasNextPage ? "" : ", that is all"}
                  </p>
                  {list.hasNextPage && (
                    <Button variant="secondary" size="sm" loading={list.isFetchingNextPage} onClick={() => list.fetchNextPage()}>
                      Load more
                    </Button>
                  )}
                </div>
              </div>
            )
          }
        </QueryStates>
      </Card>
    </div>
  );
}
