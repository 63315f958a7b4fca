"use client";

import Link from "next/link";
import { RelativeTime, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { DeliveryCounts } from "./delivery-counts";
import { EndpointStatusBadge } from "./endpoint-status-badge";
import { EndpointUrl } from "./endpoint-url";
import { EventBadges } from "./event-badges";
import type { WebhookEndpointListItem } from "./webhook-types";

// The account's endpoints. The URL is a link stretched over the whole row, so the row opens the
// endpoint's page while the text stays selectable and keyboard users get one tab stop per row.

export function EndpointsTable({ accountId, endpoints }: { accountId: string; endpoints: WebhookEndpointListItem[] }) {
  return (
    <Table className="min-w-[820px] table-fixed">
      <THead>
        <TR>
          <TH className="w-[38%]">Endpoint</TH>
          <TH className="w-[22%]">Events</TH>
          <TH className="w-[11%]">Status</TH>
          <TH className="w-[15%]">Last 24 hours</TH>
          <TH className="w-[14%] text-right">Last delivery</TH>
        </TR>
      </THead>
      <TBody>
        {endpoints.map((endpoint) => (
          <TR key={endpoint.webhook_id} className="relative cursor-pointer">
            <TD className="max-w-0">
              <Link
                href={`/dashboard/${accountId}/webhooks/${endpoint.webhook_id}`}
                className="outline-none after:absolute after:inset-0 focus-visible:after:ring-2 focus-visible:after:ring-zinc-900/10 focus-visible:after:ring-inset"
              >
                <EndpointUrl url={endpoint.webhook_url} className="font-medium" />
              </Link>
              <p className="mt-0.5 truncate text-xs text-zinc-500">
                {endpoint.webhook_description ?? <span className="text-zinc-400">No description</span>}
              </p>
            </TD>
            <TD>
              <EventBadges events={endpoint.webhook_events} />
            </TD>
            <TD>
              <EndpointStatusBadge enabled={endpoint.webhook_enabled} />
            </TD>
            <TD>
              <DeliveryCounts {...endpoint.stats.last_24h} />
            </TD>
            <TD className="text-right text-xs text-zinc-500">
              {endpoint.stats.last_delivery_at ? (
                <RelativeTime date={endpoint.stats.last_delivery_at} format="short" />
              ) : (
                <span className="text-zinc-400">Never</span>
              )}
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
