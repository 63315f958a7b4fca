"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bell, BellOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn, RelativeTime, Skeleton } from "@/components/ui";
import { useTRPC } from "@/components/trpc/react";

// The in-app channel of low-balance alerts, polled every 30 s.

export function NotificationBell({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const list = useQuery(trpc.notifications.list.queryOptions({ accountId }, { refetchInterval: 30_000 }));
  const markRead = useMutation(
    trpc.notifications.markRead.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.notifications.list.queryKey({ accountId }) }),
    }),
  );

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !panel.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const unread = list.data?.unread ?? 0;
  return (
    <div ref={panel} className="relative">
      <button
        type="button"
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
        className="relative flex size-9 items-center justify-center rounded-md text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:ring-2 focus-visible:ring-zinc-900/10 focus-visible:outline-none"
      >
        <Bell className="size-[18px]" aria-hidden />
        {unread > 0 ? (
          <span
            data-testid="notification-count"
            className="absolute top-1 right-1 flex min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] leading-4 font-semibold text-white"
          >
            {unread > 9 ? "9+" : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          role="dialog"
          aria-label="Notifications"
          className="absolute right-0 z-30 mt-2 w-80 overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-lg"
        >
          <div className="flex items-center justify-between border-b border-zinc-100 px-4 py-2.5">
            <span className="text-sm font-semibold text-zinc-900">Notifications</span>
            <button
              type="button"
              disabled={unread === 0 || markRead.isPending}
              onClick={() => markRead.mutate({ accountId })}
              className="text-xs font-medium text-zinc-500 hover:text-zinc-900 disabled:opacity-40"
            >
              Mark all read
            </button>
          </div>
          <div className="max-h-96 overflow-y-auto">
            {list.isPending ? (
              <div className="space-y-2 p-4">
                <Skeleton className="h-4 w-3/4" />
                <Skeleton className="h-4 w-1/2" />
              </div>
            ) : list.isError ? (
              <p className="p-4 text-sm text-red-600">Notifications could not be loaded.</p>
            ) : list.data.items.length === 0 ? (
              <div className="flex flex-col items-center gap-2 px-4 py-8 text-center text-sm text-zinc-500">
                <BellOff className="size-5 text-zinc-400" aria-hidden />
                Nothing yet. Low-balance alerts show up here.
              </div>
            ) : (
              <ul className="divide-y divide-zinc-100">
                {list.data.items.map((item) => (
                  <li key={item.id} className={cn("flex gap-3 px-4 py-3", !item.read && "bg-blue-50/40")}>
                    <span className={cn("mt-1.5 size-2 shrink-0 rounded-full", item.read ? "bg-transparent" : "bg-blue-500")} aria-hidden />
                    <div className="min-w-0">
                      <p className="text-sm font-medium text-zinc-900">{item.title}</p>
                      <p className="mt-0.5 text-sm text-zinc-600">{item.body}</p>
                      <RelativeTime date={item.createdAt} className="mt-1 block text-xs text-zinc-400" />
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : null}
    </div>
  );
}
