import { RelativeTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { formatMoney } from "./billing-format";
import type { OrderRow } from "./billing-types";
import { OrderStatusBadge } from "./order-status-badge";

// Credit-pack orders, newest first. An order held for review (or rejected) says why under its badge.

export function OrdersTable({ orders }: { orders: OrderRow[] }) {
  return (
    <Table className="min-w-[480px]">
      <THead>
        <TR>
          <TH>Pack</TH>
          <TH className="text-right">Amount</TH>
          <TH>Status</TH>
          <TH className="text-right">Created</TH>
        </TR>
      </THead>
      <TBody>
        {orders.map((order) => (
          <TR key={order.id}>
            <TD className="font-medium text-zinc-900 tabular-nums">{Number(order.credits).toLocaleString("en")} credits</TD>
            <TD className="text-right tabular-nums">{formatMoney(order.amountCents, order.currency)}</TD>
            <TD>
              <OrderStatusBadge status={order.status} reviewReason={order.reviewReason} />
              {order.reviewReason && <p className="mt-1 max-w-xs text-xs text-zinc-500">{order.reviewReason}</p>}
            </TD>
            <TD className="text-right text-xs text-zinc-500">
              <RelativeTime date={order.createdAt} format="short" />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
