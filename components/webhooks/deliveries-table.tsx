"use client";

import { RelativeTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { DeliveryStatusBadge } from "./delivery-status-badge";
import { EndpointUrl } from "./endpoint-url";
import { EventName } from "./event-name";
import type { WebhookDeliveryRow } from "./webhook-types";

// Delivery log rows. Each row is one button (stretched over the row) that opens the delivery.

export type DeliveriesTableProps = {
  deliveries: WebhookDeliveryRow[];
  /** Adds the endpoint column (the account-wide list). */
  showEndpoint?: boolean;
  onOpen: (deliveryId: string) => void;
};

export function DeliveriesTable({ deliveries, showEndpoint = false, onOpen }: DeliveriesTableProps) {
  return (
    <Table className={showEndpoint ? "min-w-[760px] table-fixed" : "min-w-[620px] table-fixed"}>
      <THead>
        <TR>
          <TH className="w-[120px]">Status</TH>
          <TH className={showEndpoint ? "w-[26%]" : "w-[34%]"}>Event</TH>
          {showEndpoint && <TH>Endpoint</TH>}
          <TH className="w-[90px] text-right">Attempts</TH>
          {!showEndpoint && <TH>Last response</TH>}
          <TH className="w-[130px] text-right">Created</TH>
        </TR>
      </THead>
      <TBody>
        {deliveries.map((delivery) => (
          <TR key={delivery.delivery_id} className="relative cursor-pointer">
            <TD>
              <DeliveryStatusBadge status={delivery.status} />
            </TD>
            <TD className="max-w-0 truncate">
              <button
                type="button"
                onClick={() => onOpen(delivery.delivery_id)}
                aria-label={`Open ${delivery.event} delivery ${delivery.delivery_id}`}
                className="outline-none after:absolute after:inset-0 focus-visible:after:ring-2 focus-visible:after:ring-zinc-900/10 focus-visible:after:ring-inset"
              >
                <EventName event={delivery.event} />
              </button>
            </TD>
            {showEndpoint && (
              <TD className="max-w-0">
                <EndpointUrl url={delivery.webhook_url} className="text-xs text-zinc-600" />
              </TD>
            )}
            <TD className="text-right tabular-nums">{delivery.attempt_count}</TD>
            {!showEndpoint && (
              <TD className="max-w-0 truncate text-xs">
                <LastResponse statusCode={delivery.last_status_code} error={delivery.last_error} pending={delivery.status === "pending"} />
              </TD>
            )}
            <TD className="text-right text-xs text-zinc-500">
              <RelativeTime date={delivery.created_at} format="short" />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

function LastResponse({ statusCode, error, pending }: { statusCode: number | null; error: string | null; pending: boolean }) {
  if (statusCode === null && error === null)
    return <span className="text-zinc-400">{pending ? "Waiting for the first attempt" : "—"}</span>;
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300 && error === null;
  return (
    <span className={ok ? "text-zinc-600" : "text-red-700"} title={error ?? undefined}>
      {statusCode !== null && <span className="font-mono">HTTP {statusCode}</span>}
      {error !== null && error !== `HTTP ${statusCode}` && <span className={statusCode !== null ? "ml-1.5" : undefined}>{error}</span>}
    </span>
  );
}
