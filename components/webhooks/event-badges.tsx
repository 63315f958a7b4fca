import { Badge } from "@/components/ui";
import { subscribesToAll } from "./event-kinds";

// Subscriptions, compactly: "All events", or the first few kinds and a count of the rest.

export function EventBadges({ events, max = 2 }: { events: readonly string[]; max?: number }) {
  if (subscribesToAll(events)) return <Badge tone="neutral">All events</Badge>;
  const shown = events.slice(0, max);
  const rest = events.length - shown.length;
  return (
    <div className="flex flex-wrap items-center gap-1" title={events.join(", ")}>
      {shown.map((event) => (
        <Badge key={event} tone="neutral" className="font-mono text-[11px]">
          {event}
        </Badge>
      ))}
      {rest > 0 && <span className="text-xs text-zinc-500">+{rest} more</span>}
    </div>
  );
}
