import { randomUUID } from "node:crypto";
import type { EventSink } from "@/server/base/events/executor-registry";

// Catches the events a suite's own process sends (register it with registerExecutor), so they are
// recorded for assertions and never left for another process's executor to run.

export type SentEvent = { id?: string; name: string; data: Record<string, unknown> };

export function recordingEventSink(): { sink: EventSink; sent: SentEvent[] } {
  const sent: SentEvent[] = [];
  const sink: EventSink = {
    async ingestEvents(_appId, events) {
      sent.push(...(events as SentEvent[]));
      return (events as SentEvent[]).map((event) => event.id ?? randomUUID());
    },
  };
  return { sink, sent };
}
