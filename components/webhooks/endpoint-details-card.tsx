import { Card, CardHeader, CopyButton, DateTime, RelativeTime } from "@/components/ui";
import { subscribesToAll } from "./event-kinds";
import { EventName } from "./event-name";
import type { WebhookEndpointRecord } from "./webhook-types";

export function EndpointDetailsCard({ endpoint }: { endpoint: WebhookEndpointRecord }) {
  return (
    <Card>
      <CardHeader title="Details" />
      <dl className="divide-y divide-zinc-100">
        <Row label="URL">
          <span className="flex items-start gap-1">
            <code className="min-w-0 flex-1 font-mono text-xs leading-5 break-all text-zinc-800">{endpoint.webhook_url}</code>
            <CopyButton value={endpoint.webhook_url} label="Copy URL" className="-mt-1 size-7" />
          </span>
        </Row>
        <Row label="Events">
          {subscribesToAll(endpoint.webhook_events) && <p className="mb-1.5 text-xs text-zinc-500">All events</p>}
          <ul className="space-y-1">
            {endpoint.webhook_events.map((event) => (
              <li key={event}>
                <EventName event={event} />
              </li>
            ))}
          </ul>
        </Row>
        <Row label="Description">{endpoint.webhook_description ?? <span className="text-zinc-400">None</span>}</Row>
        <Row label="Created">
          <DateTime date={endpoint.webhook_created_at} />
          <RelativeTime date={endpoint.webhook_created_at} className="block text-xs text-zinc-500" />
        </Row>
        {!endpoint.webhook_enabled && endpoint.webhook_disabled_at && (
          <Row label="Disabled">
            <RelativeTime date={endpoint.webhook_disabled_at} />
          </Row>
        )}
        <Row label="Endpoint ID">
          <code className="font-mono text-xs break-all text-zinc-700">{endpoint.webhook_id}</code>
        </Row>
      </dl>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[96px_1fr] gap-3 px-5 py-3">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-zinc-900">{children}</dd>
    </div>
  );
}
