"use client";

import { useQuery } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { useAccount } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, EmptyState, SkeletonRows, Table, TBody } from "@/components/ui";
import { DeliveriesTable } from "./deliveries-table";
import { recentDeliveriesInput } from "./log-inputs";

// The account's ten newest deliveries, every endpoint together; live while any is pending.

export function RecentDeliveriesCard({ onOpen }: { onOpen: (deliveryId: string) => void }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions(recentDeliveriesInput(accountId)),
    refetchInterval: (query) => (query.state.data?.data.some((delivery) => delivery.status === "pending") ? 2000 : false),
  });

  return (
    <Card role="region" aria-label="Recent deliveries">
      <CardHeader
        title="Recent deliveries"
        description="The ten newest events sent to any of your endpoints. Open one for its payload and attempts."
      />
      {deliveries.isPending ? (
        <Table>
          <TBody>
            <SkeletonRows rows={3} columns={5} />
          </TBody>
        </Table>
      ) : deliveries.isError ? (
        <p className="px-5 py-4 text-sm text-red-600">Deliveries could not be loaded: {errorMessage(deliveries.error)}</p>
      ) : deliveries.data.data.length === 0 ? (
        <EmptyState
          icon={Send}
          className="py-8"
          title="No deliveries yet"
          description="When an event happens, or you send a test event from an endpoint's page, it shows up here."
        />
      ) : (
        <DeliveriesTable deliveries={deliveries.data.data} showEndpoint onOpen={onOpen} />
      )}
    </Card>
  );
}
