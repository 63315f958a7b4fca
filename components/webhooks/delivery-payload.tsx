import { CopyButton } from "@/components/ui";

// The body a delivery sends, pretty-printed, with its top-level keys in the order they go out
// (the stored copy is jsonb, which sorts keys).

const wireKeys = ["webhook_event", "webhook_timestamp", "webhook_delivery_id", "webhook_data"];

function wireOrder(payload: unknown): unknown {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return payload;
  const entries = Object.entries(payload as Record<string, unknown>);
  const rank = (key: string) => (wireKeys.includes(key) ? wireKeys.indexOf(key) : wireKeys.length);
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)));
}

export function DeliveryPayload({ payload }: { payload: unknown }) {
  const text = JSON.stringify(wireOrder(payload), null, 2);
  return (
    <section className="space-y-3">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-zinc-900">Payload</h3>
        <CopyButton value={text} label="Copy payload" className="size-7" />
      </div>
      <pre className="max-h-72 overflow-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-relaxed whitespace-pre-wrap text-zinc-100 [overflow-wrap:anywhere]">
        {text}
      </pre>
    </section>
  );
}
