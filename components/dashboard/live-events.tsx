"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/components/trpc/react";

// One live feed per open dashboard tab (GET /api/live, Server-Sent Events): when a generation of
// the account is created, moves, tries a provider or finishes, the queries that show generations
// (the generations page, a generation's detail with its attempts, the overview's counters and
// recent activity, a key's detail, the playground's runs) are refreshed, at most once per FLUSH_MS. The browser's
// EventSource reconnects by itself; nothing polls.

const FLUSH_MS = 200;
const EVENTS = [
  "generation.created",
  "generation.processing",
  "generation.attempt",
  "generation.completed",
  "generation.failed",
  "generation.canceled",
];

export function LiveEvents({ accountId }: { accountId: string }) {
  const queryClient = useQueryClient();
  const trpc = useTRPC();
  useEffect(() => {
    const source = new EventSource(`/api/live?account=${encodeURIComponent(accountId)}`);
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      timer = null;
      for (const queryKey of [
        trpc.generations.pathKey(),
        trpc.account.pathKey(),
        trpc.keys.pathKey(),
        trpc.usage.pathKey(),
        trpc.playground.pathKey(),
      ])
        void queryClient.invalidateQueries({ queryKey });
    };
    const changed = () => {
      timer ??= setTimeout(refresh, FLUSH_MS);
    };
    for (const name of EVENTS) source.addEventListener(name, changed);
    // Reconnected: whatever changed while the feed was down is read once. The first connect reads
    // the generations again only (a generation may have moved between the page's server render and
    // this connect); the other pages' data came from the server a moment ago (hydration refetches
    // nothing there).
    let connectedBefore = false;
    source.addEventListener("open", () => {
      if (connectedBefore) changed();
      else void queryClient.invalidateQueries({ queryKey: trpc.generations.pathKey() });
      connectedBefore = true;
    });
    return () => {
      source.close();
      if (timer) clearTimeout(timer);
    };
  }, [accountId, queryClient, trpc]);
  return null;
}
