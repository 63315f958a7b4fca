"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Receipt } from "lucide-react";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardHeader, cn, CursorPager, type CursorStack, EmptyState, SkeletonRows, Table, TBody } from "@/components/ui";
import { ORDERS_PAGE_SIZE } from "./page-sizes";
import { OrdersTable } from "./orders-table";

// The account's orders (credit packs and auto top-ups), 10 a page on a cursor; refreshed every 2 s while the page
// waits for a payment to land.

export function OrdersCard({ accountId, live }: { accountId: string; live: boolean }) {
  const trpc = useTRPC();
  const [cursors, setCursors] = useState<CursorStack>([undefined]);
  const orders = useQuery({
    ...trpc.billing.orders.queryOptions({ accountId, limit: ORDERS_PAGE_SIZE, cursor: cursors.at(-1) }),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 2000 : false,
  });

  return (
    <Card role="region" aria-label="Orders">
      <CardHeader
        title="Orders"
        description="Credit packs and auto top-ups bought for this account. Subscription invoices are in Manage billing."
      />
      {orders.isPending ? (
        <Table>
          <TBody>
            <SkeletonRows rows={3} columns={4} />
          </TBody>
        </Table>
      ) : orders.isError ? (
        <p className="px-5 py-4 text-sm text-red-600">Orders could not be loaded: {errorMessage(orders.error)}</p>
      ) : orders.data.items.length === 0 ? (
        <EmptyState
          icon={Receipt}
          className="py-10"
          title="No orders yet"
          description="Credit packs you buy, and those auto top-up buys, show up here with their payment status."
        />
      ) : (
        <div className={cn("transition-opacity", orders.isPlaceholderData && "opacity-60")} aria-busy={orders.isPlaceholderData}>
          <OrdersTable orders={orders.data.items} />
          <CursorPager
            label="Order pages"
            cursors={cursors}
            onChange={setCursors}
            nextCursor={orders.data.next_cursor}
            shown={orders.data.items.length}
            noun={["order", "orders"]}
            busy={orders.isPlaceholderData}
          />
        </div>
      )}
    </Card>
  );
}
