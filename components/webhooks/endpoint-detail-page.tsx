"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { DetailHeader } from "@/components/dashboard/detail-header";
import { DetailPageStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { BackLink, ReadOnlyNote, Skeleton } from "@/components/ui";
import { DeadLettersCard } from "./dead-letters-card";
import { DeliveriesCard } from "./deliveries-card";
import { DeliveryDialog } from "./delivery-dialog";
import { EndpointActions } from "./endpoint-actions";
import { EndpointDetailsCard } from "./endpoint-details-card";
import { EndpointNotFound } from "./endpoint-not-found";
import { EndpointStatusBadge } from "./endpoint-status-badge";
import { DEAD_LETTERS_PAGE_SIZE } from "./log-inputs";
import { SigningCard } from "./signing-card";

// One endpoint: its actions (owners), the delivery log with each delivery's attempts, its dead
// letters, and how to verify what it receives.

export function EndpointDetailPage({ webhookId }: { webhookId: string }) {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ accountId, webhookId }));
  const [openDelivery, setOpenDelivery] = useState<string | null>(null);

  const backLink = <BackLink href={`/dashboard/${accountId}/webhooks`}>Webhooks</BackLink>;

  if (!endpoint.isSuccess) {
    return (
      <DetailPageStates
        backLink={backLink}
        query={endpoint}
        subject="The endpoint"
        loading={
          <>
            <div className="space-y-3">
              <Skeleton className="h-7 w-96 max-w-full" />
              <Skeleton className="h-4 w-48" />
            </div>
            <div className="grid gap-6 xl:grid-cols-3">
              <Skeleton className="h-72 xl:col-span-2" />
              <Skeleton className="h-72" />
            </div>
          </>
        }
        notFound={<EndpointNotFound accountId={accountId} />}
      />
    );
  }

  const data = endpoint.data;
  const isEnabled = (id: string) => (id === data.webhook_id ? data.webhook_enabled : undefined);

  return (
    <div className="space-y-8">
      <DetailHeader
        backLink={backLink}
        heading={
          <>
            <h1
              title={data.webhook_url}
              className="line-clamp-2 min-w-0 font-mono text-lg font-semibold tracking-tight break-all text-zinc-900"
            >
              {data.webhook_url}
            </h1>
            <EndpointStatusBadge enabled={data.webhook_enabled} />
          </>
        }
        subheading={data.webhook_description && <p className="text-sm text-zinc-500">{data.webhook_description}</p>}
        actions={
          isOwner ? (
            <EndpointActions accountId={accountId} endpoint={data} onTestSent={setOpenDelivery} />
          ) : (
            <ReadOnlyNote className="mt-1">Only owners can change webhooks</ReadOnlyNote>
          )
        }
      >
        {!data.webhook_enabled && (
          <p className="rounded-md border border-amber-200 bg-amber-50 px-3.5 py-2.5 text-sm text-amber-900">
            This endpoint is disabled: nothing is sent to it. Events it subscribes to are kept as dead letters below, to replay once it is
            enabled again.
          </p>
        )}
      </DetailHeader>

      {/* Three columns only where the details column is wide enough for URLs and event names. */}
      <div className="grid items-start gap-6 xl:grid-cols-3">
        <div className="min-w-0 space-y-6 xl:col-span-2">
          <DeliveriesCard webhookId={webhookId} onOpen={setOpenDelivery} />
          <DeadLettersCard
            webhookId={webhookId}
            isEnabled={isEnabled}
            onOpenDelivery={setOpenDelivery}
            pageSize={DEAD_LETTERS_PAGE_SIZE.endpoint}
          />
        </div>
        <EndpointDetailsCard endpoint={data} />
      </div>

      <SigningCard />

      <DeliveryDialog deliveryId={openDelivery} onClose={() => setOpenDelivery(null)} isEnabled={isEnabled} />
    </div>
  );
}
