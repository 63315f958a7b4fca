"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { BackLink, ReadOnlyNote, Skeleton } from "@/components/ui";
import { RequestLogsCard } from "@/components/request-logs/request-logs-card";
import { KeyActions } from "./key-actions";
import { KeyDetailsCard } from "./key-details-card";
import { KeyNotFound } from "./key-not-found";
import { KeyStateBadge } from "./key-state-badge";
import type { ApiBaseUrls } from "./key-types";

// One key: its details, its actions (owners) and its request log (everyone).

export function KeyDetailPage({ keyId, apiBaseUrls }: { keyId: string; apiBaseUrls: ApiBaseUrls }) {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const router = useRouter();
  const apiKey = useQuery(trpc.keys.get.queryOptions({ accountId, keyId }));

  const backLink = <BackLink href={`/dashboard/${accountId}/keys`}>API keys</BackLink>;

  if (!apiKey.isSuccess) {
    return (
      <div className="space-y-8">
        {backLink}
        <QueryStates
          query={apiKey}
          subject="The key"
          placement="page"
          loading={
            <>
              <div className="space-y-3">
                <Skeleton className="h-7 w-72 max-w-full" />
                <Skeleton className="h-4 w-48" />
              </div>
              <Skeleton className="h-40" />
              <Skeleton className="h-72" />
            </>
          }
          notFound={<KeyNotFound accountId={accountId} />}
        />
      </div>
    );
  }

  const data = apiKey.data;
  return (
    <div className="space-y-8">
      <div className="space-y-4">
        {backLink}
        <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-4">
          <div className="min-w-60 flex-1 space-y-1.5">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
              <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-zinc-900">{data.apikey_name}</h1>
              <KeyStateBadge apiKey={data} />
            </div>
            <p className="font-mono text-sm text-zinc-500">{data.apikey_prefix}…</p>
          </div>
          {isOwner ? (
            <KeyActions accountId={accountId} apiKey={data} apiBaseUrls={apiBaseUrls} onDeleted={() => router.push(`/dashboard/${accountId}/keys`)} />
          ) : (
            <ReadOnlyNote className="mt-1">Read-only: only owners can create, rotate, revoke or delete keys</ReadOnlyNote>
          )}
        </div>
      </div>

      <KeyDetailsCard accountId={accountId} apiKey={data} />
      <RequestLogsCard accountId={accountId} keyId={keyId} description="Every request made with this key, newest first." />
    </div>
  );
}
