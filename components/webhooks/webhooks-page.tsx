"use client";

import { useQuery } from "@tanstack/react-query";
import { Plus, Webhook } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { Button, Card, CardHeader, EmptyState, PageHeader, ReadOnlyNote, SkeletonRows, Table, TBody } from "@/components/ui";
import { AddEndpointDialog } from "./add-endpoint-dialog";
import { DeadLettersCard } from "./dead-letters-card";
import { DeliveryDialog } from "./delivery-dialog";
import { EndpointsTable } from "./endpoints-table";
import { RecentDeliveriesCard } from "./recent-deliveries-card";

// The webhooks page: the account's endpoints, the newest deliveries across them, and the dead
// letters still waiting for a replay. Owners add endpoints; members read.

export function WebhooksPage() {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({ accountId }));
  const [adding, setAdding] = useState(false);
  const [openDelivery, setOpenDelivery] = useState<string | null>(null);

  const enabledById = new Map((endpoints.data ?? []).map((endpoint) => [endpoint.webhook_id, endpoint.webhook_enabled]));
  const isEnabled = (webhookId: string) => enabledById.get(webhookId);

  const addButton = (
    <Button onClick={() => setAdding(true)}>
      <Plus aria-hidden />
      Add endpoint
    </Button>
  );

  const hasEndpoints = (endpoints.data?.length ?? 0) > 0;

  return (
    <div className="space-y-8">
      <PageHeader
        title="Webhooks"
        description="Signed HTTPS requests to your servers when generations start, finish or fail, and when credits run low."
        actions={isOwner ? hasEndpoints ? addButton : null : <ReadOnlyNote>Only owners can change webhooks</ReadOnlyNote>}
      />

      <Card>
        <QueryStates
          query={endpoints}
          subject="The endpoints"
          lead={<CardHeader title="Endpoints" />}
          loading={
            <Table>
              <TBody>
                <SkeletonRows rows={3} columns={5} />
              </TBody>
            </Table>
          }
        >
          {(data) =>
            data.length === 0 ? (
              <EmptyState
                icon={Webhook}
                className="py-16"
                title="No webhook endpoints yet"
                description="Webhooks push events to a URL you choose the moment they happen: a generation starts, completes, fails or is canceled, or your balance runs low. Every request is signed, retried on failure and logged here."
                action={isOwner ? addButton : <p className="text-sm text-zinc-500">Ask an owner of this account to add one.</p>}
              />
            ) : (
              <>
                <CardHeader
                  title="Endpoints"
                  description={`${data.length} ${data.length === 1 ? "endpoint" : "endpoints"}. ${isOwner ? "Open one to send a test event, see its deliveries or manage its secret." : "Open one to see its deliveries and dead letters."}`}
                />
                <EndpointsTable accountId={accountId} endpoints={data} />
              </>
            )
          }
        </QueryStates>
      </Card>

      {hasEndpoints && (
        <>
          <RecentDeliveriesCard onOpen={setOpenDelivery} />
          <DeadLettersCard waitingOnly isEnabled={isEnabled} onOpenDelivery={setOpenDelivery} />
        </>
      )}

      <DeliveryDialog deliveryId={openDelivery} onClose={() => setOpenDelivery(null)} isEnabled={isEnabled} />
      {isOwner && <AddEndpointDialog accountId={accountId} open={adding} onOpenChange={setAdding} />}
    </div>
  );
}
