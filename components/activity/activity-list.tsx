import { Badge, RelativeTime } from "@/components/ui";
import { activityCategoryStyles, type ActivityCategory } from "./activity-categories";

// Feed rows: actor, category, action (machine-readable), description and time (relative, the exact
// time on hover). A grid on wide screens, stacked on phones, so nothing scrolls sideways.

export type ActivityRow = {
  id: string;
  actor: string;
  actorName: string;
  category: ActivityCategory;
  action: string;
  description: string;
  createdAt: Date;
};

const columns = "sm:grid sm:grid-cols-[minmax(0,13rem)_minmax(0,15rem)_minmax(0,1fr)_6rem] sm:items-center sm:gap-4";

export function ActivityList({ events }: { events: ActivityRow[] }) {
  return (
    <div>
      <div aria-hidden className={`hidden border-b border-zinc-200 bg-zinc-50/60 px-5 py-2.5 text-xs font-medium text-zinc-500 ${columns}`}>
        <span>Actor</span>
        <span>Event</span>
        <span>Description</span>
        <span className="text-right">Time</span>
      </div>
      <ul aria-label="Activity events" className="divide-y divide-zinc-100">
        {events.map((event) => {
          const style = activityCategoryStyles[event.category];
          const isSystem = event.actorName === "system";
          return (
            <li key={event.id} className={`flex flex-col gap-1.5 px-5 py-3 transition-colors hover:bg-zinc-50 ${columns}`}>
              <div className="flex min-w-0 items-center justify-between gap-3 sm:block">
                <span
                  className={
                    isSystem
                      ? "block min-w-0 truncate font-mono text-xs text-zinc-500"
                      : "block min-w-0 truncate text-sm font-medium text-zinc-900"
                  }
                  title={isSystem ? event.actor : `${event.actorName} (${event.actor})`}
                >
                  {event.actorName}
                </span>
                <RelativeTime date={event.createdAt} className="shrink-0 text-xs text-zinc-500 sm:hidden" />
              </div>
              <div className="flex min-w-0 flex-wrap items-center gap-2">
                <Badge tone={style.tone}>{style.label}</Badge>
                <code className="truncate font-mono text-xs text-zinc-600" title={event.action}>
                  {event.action}
                </code>
              </div>
              <p className="min-w-0 text-sm break-words text-zinc-700">{event.description}</p>
              <RelativeTime date={event.createdAt} className="hidden text-right text-xs text-zinc-500 tabular-nums sm:block" />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
