"use client";

import { useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useAccount } from "@/components/dashboard/account-context";
import { isNotFound } from "@/components/trpc/api-error";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Card, CardBody, ReadOnlyNote, Skeleton } from "@/components/ui";
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

  const backLink = (
    <Link href={`/dashboard/${accountId}/keys`} className="inline-flex items-center gap-1.5 text-sm text-zinc-500 transition-colors hover:text-zinc-900">
      <ArrowLeft className="size-4" aria-hidden />
      API keys
    </Link>
  );

  if (apiKey.isPending) {
    return (
      <div className="space-y-8">
        {backLink}
        <div className="space-y-3">
          <Skeleton className="h-7 w-72 max-w-full" />
          <Skeleton className="h-4 w-48" />
        </div>
        <Skeleton className="h-40" />
        <Skeleton className="h-72" />
      </div>
    );
  }

  if (apiKey.isError) {
    return (
      <div className="space-y-8">
        {backLink}
        {isNotFound(apiKey.error) ? (
          <KeyNotFound accountId={accountId} />
        ) : (
          <Card>
            <CardBody className="flex items-center justify-between gap-4">
              <p className="text-sm text-red-600">The key could not be loaded: {errorMessage(apiKey.error)}</p>
              <Button variant="secondary" size="sm" onClick={() => apiKey.refetch()}>
                Try again
              </Button>
            </CardBody>
          </Card>
        )}
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
