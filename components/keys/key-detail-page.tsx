"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useAccount } from "@/components/dashboard/account-context";
import { DetailHeader } from "@/components/dashboard/detail-header";
import { DetailPageStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { BackLink, ReadOnlyNote, Skeleton } from "@/components/ui";
import { RequestLogsCard } from "@/components/request-logs/request-logs-card";
import { KeySpendCard } from "@/components/spend/key-spend-card";
import { PlaygroundKeyBadge } from "./playground-key-badge";
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
      <DetailPageStates
        backLink={backLink}
        query={apiKey}
        subject="The key"
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
    );
  }

  const data = apiKey.data;
  return (
    <div className="space-y-8">
      <DetailHeader
        backLink={backLink}
        titleClassName="min-w-60"
        heading={
          <>
            <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-zinc-900">{data.apikey_name}</h1>
            <KeyStateBadge apiKey={data} />
          </>
        }
        subheading={
          <div className="space-y-1">
            <p className="font-mono text-sm text-zinc-500">{data.apikey_prefix}…</p>
            {data.playground && (
              <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-600">
                <PlaygroundKeyBadge />
                Runs from the dashboard&apos;s playground and Compare page are attributed to this key. Its value was never issued, so it
                authenticates no request. A spend limit caps those runs; revoking stops them.
              </p>
            )}
          </div>
        }
        actions={
          isOwner ? (
            <KeyActions
              accountId={accountId}
              apiKey={data}
              apiBaseUrls={apiBaseUrls}
              onDeleted={() => router.push(`/dashboard/${accountId}/keys`)}
            />
          ) : (
            <ReadOnlyNote className="mt-1">Read-only: only owners can create, rotate, revoke or delete keys</ReadOnlyNote>
          )
        }
      />

      <KeyDetailsCard accountId={accountId} apiKey={data} />
      <KeySpendCard accountId={accountId} keyId={keyId} canManage={isOwner} />
      <RequestLogsCard accountId={accountId} keyId={keyId} description="Every request made with this key, newest first." />
    </div>
  );
}
