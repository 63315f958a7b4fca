"use client";

import { useQuery } from "@tanstack/react-query";
import { Lock, SearchX } from "lucide-react";
import { useAccount } from "@/components/dashboard/account-context";
import { DetailHeader } from "@/components/dashboard/detail-header";
import { DetailPageStates } from "@/components/dashboard/query-states";
import { useTRPC } from "@/components/trpc/react";
import { BackLink, Card, CardBody, CardHeader, EmptyState, Skeleton } from "@/components/ui";
import { AttemptsTable } from "./attempts-table";
import { GenerationActions } from "./generation-actions";
import { GenerationFactsCard } from "./generation-facts-card";
import { GenerationOutputs } from "./generation-outputs";
import { GenerationStatusBadge } from "./generation-status-badge";
import { LedgerTable } from "./ledger-table";

// One generation: prompt, outputs, provider attempts, credit ledger, parameters and facts. Live
// from the account's feed (live-events.tsx): each attempt and the end show as they happen. Owners
// cancel and delete; members read.

export function GenerationDetailPage({ generationId }: { generationId: string }) {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const detail = useQuery(trpc.generations.get.queryOptions({ accountId, generationId }));

  const backLink = <BackLink href={`/dashboard/${accountId}/generations`}>Generations</BackLink>;

  if (!detail.isSuccess) {
    return (
      <DetailPageStates
        backLink={backLink}
        query={detail}
        subject="The generation"
        loading={
          <>
            <Skeleton className="h-7 w-96 max-w-full" />
            <div className="grid gap-6 lg:grid-cols-3">
              <Skeleton className="h-80 lg:col-span-2" />
              <Skeleton className="h-80" />
            </div>
          </>
        }
        notFound={
          <Card>
            <EmptyState
              icon={SearchX}
              className="py-16"
              title="Generation not found"
              description="It does not exist in this account, or its record has passed the plan's retention."
            />
          </Card>
        }
      />
    );
  }

  const data = detail.data;
  const { record } = data;
  const removed = !!record.generation_removed;

  return (
    <div className="space-y-8">
      <DetailHeader
        backLink={backLink}
        heading={
          <>
            <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Generation</h1>
            <GenerationStatusBadge status={record.generation_status} removed={removed} />
          </>
        }
        subheading={<p className="font-mono text-xs break-all text-zinc-500">{record.generation_id}</p>}
        actions={
          isOwner ? (
            <GenerationActions accountId={accountId} generationId={generationId} cancelable={data.cancelable} removed={removed} />
          ) : (
            <p className="mt-1 inline-flex items-center gap-1.5 rounded-md bg-zinc-100 px-2.5 py-1 text-xs font-medium text-zinc-600">
              <Lock className="size-3.5 text-zinc-400" aria-hidden />
              Only owners can cancel or delete generations
            </p>
          )
        }
      >
        {record.generation_status === "failed" && (
          <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3.5 py-2.5 text-sm text-red-800">
            <span className="font-mono font-medium">{record.generation_error_code ?? "Error"}</span>
            {record.generation_error ? `: ${record.generation_error}` : null}
          </div>
        )}
        {record.generation_status === "canceled" && record.generation_error_code === "ERR4006" && (
          <div role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3.5 py-2.5 text-sm text-amber-900">
            <span className="font-medium">Deadline exceeded</span> <span className="font-mono text-xs">(ERR4006)</span>
            {record.generation_error ? `: ${record.generation_error}` : null}
          </div>
        )}
      </DetailHeader>

      <Card role="region" aria-label="Prompt">
        <CardHeader title="Prompt" />
        <CardBody>
          <p className="text-[15px] leading-relaxed whitespace-pre-wrap text-zinc-900">
            {record.generation_prompt ?? <span className="text-zinc-400">No prompt</span>}
          </p>
        </CardBody>
      </Card>

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <GenerationOutputs detail={data} />
          <AttemptsTable attempts={data.attempts} />
          <LedgerTable entries={data.ledger} />
        </div>
        <div className="min-w-0 space-y-6">
          <GenerationFactsCard detail={data} />
          <Card role="region" aria-label="Parameters">
            <CardHeader title="Parameters" description="The validated request, as the providers received it." />
            <pre className="px-5 py-4 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-zinc-700">
              {JSON.stringify(data.parameters, null, 2)}
            </pre>
          </Card>
        </div>
      </div>
    </div>
  );
}
