"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ScrollText } from "lucide-react";
import { useState } from "react";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import {
  Card,
  CardHeader,
  cn,
  CursorPager,
  type CursorStack,
  EmptyState,
  SkeletonRows,
  Table,
  TBody,
  timeRangeStart,
} from "@/components/ui";
import { REQUEST_LOG_PAGE_SIZE } from "./page-size";
import { RequestLogFilters, type RequestLogFilterValues } from "./request-log-filters";
import { RequestLogsTable } from "./request-logs-table";

// A request log, newest first, 25 a page on a cursor (Previous walks back the cursors seen). The
// account's log (logs page), or one key's (the key's page, where the key filter is left out).

export type RequestLogsCardProps = { accountId: string; keyId?: string; description?: string };

export function RequestLogsCard({
  accountId,
  keyId,
  description = "Every request made with this account's keys, newest first.",
}: RequestLogsCardProps) {
  const trpc = useTRPC();
  const [filters, setFilters] = useState<RequestLogFilterValues>({ range: "any" });
  // Fixed when the range is chosen, so the query (and its cache key) stays put while paging.
  const [from, setFrom] = useState<Date | undefined>(undefined);
  const [cursors, setCursors] = useState<CursorStack>([undefined]);
  const cursor = cursors.at(-1);

  const logs = useQuery({
    ...trpc.requestLogs.list.queryOptions({
      accountId,
      keyId: keyId ?? filters.keyId,
      statusClass: filters.statusClass,
      endpoint: filters.endpoint,
      errorCode: filters.errorCode,
      from,
      cursor,
      limit: REQUEST_LOG_PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });

  function changeFilters(next: RequestLogFilterValues) {
    if (next.range !== filters.range) setFrom(timeRangeStart(next.range));
    setFilters(next);
    setCursors([undefined]);
  }

  const filtered = Boolean(filters.statusClass || filters.endpoint || filters.errorCode || filters.keyId || filters.range !== "any");

  return (
    <Card role="region" aria-label="Request log">
      <CardHeader title="Request log" description={description} />
      <RequestLogFilters accountId={accountId} values={filters} onChange={changeFilters} showKey={keyId === undefined} />
      <QueryStates
        query={logs}
        subject="The request log"
        loading={
          <Table>
            <TBody>
              <SkeletonRows rows={5} columns={6} />
            </TBody>
          </Table>
        }
      >
        {(data) =>
          data.data.length === 0 ? (
            filtered ? (
              <EmptyState
                icon={ScrollText}
                className="py-10"
                title="No requests match these filters"
                description="Try another status, endpoint, error code or time range."
              />
            ) : (
              <EmptyState
                icon={ScrollText}
                className="py-10"
                title="No requests yet"
                description="Requests made with a key show up here as they arrive, with their status and error code."
              />
            )
          ) : (
            <div className={cn("transition-opacity", logs.isPlaceholderData && "opacity-60")}>
              <RequestLogsTable entries={data.data} showKey={keyId === undefined} />
              <CursorPager
                label="Request log pages"
                cursors={cursors}
                onChange={setCursors}
                nextCursor={data.next_cursor}
                shown={data.data.length}
                noun={["request", "requests"]}
                busy={logs.isPlaceholderData}
              />
            </div>
          )
        }
      </QueryStates>
    </Card>
  );
}
