"use client";

import { useQuery } from "@tanstack/react-query";
import { ChevronRight, Database, HardDrive } from "lucide-react";
import Link from "next/link";
import { useTRPC } from "@/components/trpc/react";
import { Card, Skeleton } from "@/components/ui";
import { hostOf } from "./storage-format";

// The Storage row of the Settings page: where outputs go now, and the way to the Storage page.

export function StorageLinkCard({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const destination = useQuery(trpc.storage.destination.queryOptions({ accountId }));
  const view = destination.data;
  const Icon = view ? Database : HardDrive;
  return (
    <Card>
      <Link
        href={`/dashboard/${accountId}/settings/storage`}
        className="group flex items-center gap-3 rounded-lg px-5 py-4 transition-colors outline-none hover:bg-zinc-50 focus-visible:ring-2 focus-visible:ring-zinc-900/10"
      >
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg border border-zinc-200 bg-zinc-50">
          <Icon className="size-4 text-zinc-500" aria-hidden />
        </span>
        <span className="min-w-0 flex-1 space-y-0.5">
          <span className="block text-sm font-medium text-zinc-900">Output storage</span>
          {destination.isPending ? (
            <Skeleton className="mt-1 w-48" />
          ) : (
            <span className="block truncate text-sm text-zinc-500">
              {view ? (
                <>
                  Your bucket <span className="font-mono text-[13px] text-zinc-700">{view.bucket}</span> at {hostOf(view.endpoint)}
                </>
              ) : (
                "Stored by Darkroom for the plan's output retention"
              )}
            </span>
          )}
        </span>
        <ChevronRight className="size-4 shrink-0 text-zinc-400 transition-transform group-hover:translate-x-0.5" aria-hidden />
      </Link>
    </Card>
  );
}
