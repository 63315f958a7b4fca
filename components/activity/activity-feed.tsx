"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Card, CardHeader, cn, CursorPager, type CursorStack, EmptyState, Skeleton, timeRangeStart } from "@/components/ui";
import { ActivityFilters, type ActivityFilterValues } from "./activity-filters";
import { ActivityList } from "./activity-list";
import { ACTIVITY_PAGE_SIZE } from "./page-size";

// The account's audit feed, newest first, a page at a time on a cursor (Newer walks back the
// cursors seen). The first page without filters is prefetched by the page on the server.

export function ActivityFeed({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<ActivityFilterValues>({ range: "any" });
  // Fixed when the range is chosen, so the query (and its cache key) stays put while paging.
  const [from, setFrom] = useState<Date | undefined>(undefined);
  const [cursors, setCursors] = useState<CursorStack>([undefined]);
  const cursor = cursors.at(-1);

  const feed = useQuery({
    ...trpc.activity.list.queryOptions({ accountId, category: filters.category, from, cursor, limit: ACTIVITY_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });

  function changeFilters(next: ActivityFilterValues) {
    if (next.range !== filters.range) setFrom(timeRangeStart(next.range));
    setFilters(next);
    setCursors([undefined]);
  }

  const filtered = Boolean(filters.category || filters.range !== "any");

  return (
    <Card role="region" aria-label="Activity feed">
      <CardHeader title="Activity feed" description="Every change made in this account, by a person or by the system, newest first." />
      <ActivityFilters values={filters} onChange={changeFilters} />
      {feed.isPending ? (
        <div className="space-y-4 px-5 py-5" aria-busy="true" aria-label="Loading activity">
          {Array.from({ length: 5 }, (_, index) => (
            <div key={index} className="flex items-center gap-4">
              <Skeleton className="h-4 w-28" />
              <Skeleton className="h-5 w-20 rounded-full" />
              <Skeleton className="h-4 flex-1" />
            </div>
          ))}
        </div>
      ) : feed.isError ? (
        <div className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-red-600">The activity feed could not be loaded: {errorMessage(feed.error)}</p>
          <Button variant="secondary" size="sm" onClick={() => feed.refetch()}>
            Try again
          </Button>
        </div>
      ) : feed.data.data.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={History}
            className="py-10"
            title="No events match these filters"
            description="Try another category or a longer time range."
          />
        ) : (
          <EmptyState
            icon={History}
            className="py-10"
            title="Nothing has happened yet"
            description="Keys, webhooks, credits, billing and team changes show up here as they happen."
          />
        )
      ) : (
        <div className={cn("transition-opacity", feed.isPlaceholderData && "opacity-60")} aria-busy={feed.isPlaceholderData}>
          <ActivityList events={feed.data.data} />
          <CursorPager
            label="Activity pages"
            cursors={cursors}
            onChange={setCursors}
            nextCursor={feed.data.next_cursor}
            shown={feed.data.data.length}
            noun={["event", "events"]}
            busy={feed.isPlaceholderData}
          />
        </div>
      )}
    </Card>
  );
}
