import { Package, RefreshCw } from "lucide-react";
import { RelativeTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { orderFailureText } from "./auto-top-up-format";
import { formatMoney } from "./billing-format";
import type { OrderKind, OrderRow } from "./billing-types";
import { OrderStatusBadge } from "./order-status-badge";

// Orders, newest first: credit packs bought in Checkout and the packs auto top-up bought with the
// saved card. An order held for review (or rejected), declined or not attempted says why under its
// badge. A table from 640 px up; a stacked list below, as the ledger does.

const kinds: Record<OrderKind, { label: string; icon: typeof Package }> = {
  pack: { label: "Credit pack", icon: Package },
  auto_top_up: { label: "Auto top-up", icon: RefreshCw },
};

const reasonOf = (order: OrderRow) => order.reviewReason ?? orderFailureText(order.failureReason);

function OrderWhat({ order }: { order: OrderRow }) {
  const kind = kinds[order.kind] ?? kinds.pack;
  const Icon = kind.icon;
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span className="flex size-7 shrink-0 items-center justify-center rounded-md border border-zinc-200 bg-zinc-50">
        <Icon className="size-3.5 text-zinc-500" aria-hidden />
      </span>
      <div className="min-w-0">
        <p className="font-medium text-zinc-900 tabular-nums">{Number(order.credits).toLocaleString("en")} credits</p>
        <p className="text-xs text-zinc-500">{kind.label}</p>
      </div>
    </div>
  );
}

export function OrdersTable({ orders }: { orders: OrderRow[] }) {
  return (
    <>
      <ul className="divide-y divide-zinc-100 sm:hidden">
        {orders.map((order) => {
          const reason = reasonOf(order);
          return (
            <li key={order.id} className="space-y-2 px-5 py-3">
              <div className="flex items-start justify-between gap-3">
                <OrderWhat order={order} />
                <div className="shrink-0 text-right text-sm">
                  <p className="font-medium text-zinc-900 tabular-nums">{formatMoney(order.amountCents, order.currency)}</p>
                  <RelativeTime date={order.createdAt} format="short" className="text-xs text-zinc-400" />
                </div>
              </div>
              <div className="pl-10">
                <OrderStatusBadge status={order.status} reviewReason={reason} />
                {reason && <p className="mt-1 text-xs text-zinc-500">{reason}</p>}
              </div>
            </li>
          );
        })}
      </ul>
      <div className="hidden sm:block">
        <Table className="min-w-[480px]">
          <THead>
            <TR>
              <TH>Order</TH>
              <TH className="text-right">Amount</TH>
              <TH>Status</TH>
              <TH className="text-right">Created</TH>
            </TR>
          </THead>
          <TBody>
            {orders.map((order) => {
              const reason = reasonOf(order);
              return (
                <TR key={order.id}>
                  <TD>
                    <OrderWhat order={order} />
                  </TD>
                  <TD className="text-right tabular-nums">{formatMoney(order.amountCents, order.currency)}</TD>
                  <TD>
                    <OrderStatusBadge status={order.status} reviewReason={reason} />
                    {reason && <p className="mt-1 max-w-xs text-xs text-zinc-500">{reason}</p>}
                  </TD>
                  <TD className="text-right text-xs text-zinc-500">
                    <RelativeTime date={order.createdAt} format="short" />
                  </TD>
                </TR>
              );
            })}
          </TBody>
        </Table>
      </div>
    </>
  );
}
