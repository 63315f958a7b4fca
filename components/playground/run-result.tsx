"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { GenerationStatusBadge } from "@/components/generations/generation-status-badge";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, FormError, Skeleton } from "@/components/ui";
import type { RunView } from "./playground-types";
import { RunOutputs } from "./run-outputs";
import { RunFacts, RunProgress } from "./run-progress";

// One run, live: the account's feed (LiveEvents) refreshes it as it is queued, tries providers
// and ends. Cancel while it runs (refunded); its generation's page has the ledger and parameters.

export function useRunView(generationId: string) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  return useQuery(trpc.playground.get.queryOptions({ accountId, generationId }));
}

export function RunResult({ generationId, canRun }: { generationId: string; canRun: boolean }) {
  const run = useRunView(generationId);
  return (
    <QueryStates query={run} subject="The run" loading={<Skeleton className="h-40" />}>
      {(data) => <RunBody run={data} canRun={canRun} />}
    </QueryStates>
  );
}

export function RunBody({ run, canRun, compact = false }: { run: RunView; canRun: boolean; compact?: boolean }) {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.playground.cancel.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.playground.pathKey() }),
    }),
  );
  const id = run.record.generation_id;
  return (
    <div className="space-y-4" data-run={id} data-status={run.record.generation_status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <GenerationStatusBadge status={run.record.generation_status} removed={Boolean(run.record.generation_removed)} />
        <div className="flex items-center gap-2">
          {run.cancelable && canRun && (
            <Button variant="secondary" size="sm" loading={cancel.isPending} onClick={() => cancel.mutate({ accountId, generationId: id })}>
              Cancel
            </Button>
          )}
          <Link
            href={`/dashboard/${accountId}/generations/${id}`}
            className="text-xs font-medium text-zinc-600 underline-offset-2 hover:text-zinc-900 hover:underline"
          >
            Generation details
          </Link>
        </div>
      </div>
      {cancel.isError && <FormError>{errorMessage(cancel.error)}</FormError>}
      <RunProgress run={run} />
      <RunOutputs run={run} compact={compact} />
      {!compact && <RunFacts run={run} />}
    </div>
  );
}
