"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, cn, EmptyState, Pagination, SkeletonRows, Table, TBody } from "@/components/ui";
import { DeliveriesTable } from "./deliveries-table";
import { DELIVERIES_PAGE_SIZE, endpointDeliveriesInput } from "./log-inputs";
import type { DeliveryStatus } from "./webhook-types";

// One endpoint's delivery log: filter by status, 25 a page, live (every 2 s) while a shown
// delivery is still pending.

const filters: Array<{ value: DeliveryStatus | undefined; label: string }> = [
  { value: undefined, label: "All" },
  { value: "delivered", label: "Delivered" },
  { value: "failed", label: "Failed" },
  { value: "pending", label: "Pending" },
];

export function DeliveriesCard({ webhookId, onOpen }: { webhookId: string; onOpen: (deliveryId: string) => void }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const [status, setStatus] = useState<DeliveryStatus | undefined>(undefined);
  const [offset, setOffset] = useState(0);

  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions(endpointDeliveriesInput(accountId, webhookId, status, offset)),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((delivery) => delivery.status === "pending") ? 2000 : false),
  });

  const filterLabel = filters.find((filter) => filter.value === status)?.label.toLowerCase();

  return (
    <Card role="region" aria-label="Deliveries">
      <CardHeader
        title="Deliveries"
        description="Every event sent to this endpoint, newest first."
        actions={
          <div role="group" aria-label="Filter by status" className="inline-flex rounded-md border border-zinc-200 bg-zinc-50 p-0.5">
            {filters.map((filter) => (
              <button
                key={filter.label}
                type="button"
                aria-pressed={status === filter.value}
                onClick={() => {
                  setStatus(filter.value);
                  setOffset(0);
                }}
                className={cn(
                  "rounded px-2.5 py-1 text-xs font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-zinc-900/10",
                  status === filter.value ? "bg-white text-zinc-900 shadow-xs ring-1 ring-zinc-200" : "text-zinc-500 hover:text-zinc-900",
                )}
              >
                {filter.label}
              </button>
            ))}
          </div>
        }
      />
      {deliveries.isPending ? (
        <Table>
          <TBody>
            <SkeletonRows rows={4} columns={5} />
          </TBody>
        </Table>
      ) : deliveries.isError ? (
        <p className="px-5 py-4 text-sm text-red-600">Deliveries could not be loaded: {errorMessage(deliveries.error)}</p>
      ) : deliveries.data.data.length === 0 ? (
        status ? (
          <EmptyState icon={Send} className="py-10" title={`No ${filterLabel} deliveries`} description="Try another filter." />
        ) : (
          <EmptyState
            icon={Send}
            className="py-10"
            title="No deliveries yet"
            description="Events this endpoint subscribes to show up here as they are sent. Send a test event to try it."
          />
        )
      ) : (
        <div className={cn("transition-opacity", deliveries.isPlaceholderData && "opacity-60")}>
          <DeliveriesTable deliveries={deliveries.data.data} onOpen={onOpen} />
          <Pagination
            label="Delivery pages"
            offset={offset}
            limit={DELIVERIES_PAGE_SIZE}
            total={deliveries.data.total}
            shown={deliveries.data.data.length}
            onOffsetChange={setOffset}
          />
        </div>
      )}
    </Card>
  );
}
