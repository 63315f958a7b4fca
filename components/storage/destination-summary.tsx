"use client";

import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, Database, PlugZap, RefreshCw, Trash2, XCircle } from "lucide-react";
import { useState, type ReactNode } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Badge, Button, Card, CardFooter, DateTime, ReadOnlyNote, RelativeTime, cn } from "@/components/ui";
import { RemoveDestinationDialog } from "./remove-destination-dialog";
import { durationLabel, hostOf, objectKeyPattern } from "./storage-format";
import type { DestinationTestResult, DestinationView } from "./storage-types";

// The account's bucket as saved: where outputs go, how their links are made, what happens when a
// write is refused. The primary owner tests it again (the result inline), replaces or removes it;
// everyone else reads it.

export function DestinationSummary({
  accountId,
  view,
  canManage,
  onReplace,
}: {
  accountId: string;
  view: DestinationView;
  canManage: boolean;
  onReplace: () => void;
}) {
  const trpc = useTRPC();
  const [removing, setRemoving] = useState(false);
  const test = useMutation(trpc.storage.testDestination.mutationOptions());

  return (
    <Card role="region" aria-label="Storage destination">
      <div className="flex flex-wrap items-start justify-between gap-4 border-b border-zinc-200 px-5 py-4">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-lg border border-zinc-200 bg-zinc-50">
            <Database className="size-4 text-zinc-500" aria-hidden />
          </span>
          <div className="min-w-0 space-y-0.5">
            <h2 id="storage-destination-title" className="text-sm font-semibold text-zinc-900">
              Your bucket
            </h2>
            <p className="text-sm text-zinc-500">
              Every output is written to <span className="font-mono text-[13px] break-all text-zinc-700">{view.bucket}</span> at{" "}
              <span className="font-mono text-[13px] break-all text-zinc-700">{hostOf(view.endpoint)}</span>.
            </p>
          </div>
        </div>
        <Badge tone="green" dot>
          Connected
        </Badge>
      </div>

      <dl className="divide-y divide-zinc-100 px-5" data-testid="storage-destination">
        <Fact label="Endpoint">
          <span className="font-mono text-[13px] break-all" title={view.endpoint}>
            {hostOf(view.endpoint)}
          </span>
          {view.path_style && <span className="ml-2 text-xs text-zinc-500">path-style</span>}
        </Fact>
        <Fact label="Region">
          <span className="font-mono text-[13px]">{view.region}</span>
        </Fact>
        <Fact label="Bucket">
          <span className="font-mono text-[13px] break-all">{view.bucket}</span>
        </Fact>
        <Fact label="Prefix">
          {view.prefix ? (
            <span className="font-mono text-[13px] break-all">{view.prefix}/</span>
          ) : (
            <span className="text-zinc-500">None: the bucket&apos;s root</span>
          )}
          <span className="mt-0.5 block font-mono text-xs break-all text-zinc-400">{objectKeyPattern(view.prefix)}</span>
        </Fact>
        <Fact label="Access key">
          <span className="font-mono text-[13px]">{view.access_key_id}</span>
          <span className="ml-2 text-xs text-zinc-500">secret encrypted, never shown</span>
        </Fact>
        <Fact label="Links">
          {view.links.kind === "presigned" ? (
            <>
              Presigned, valid for <span className="font-medium">{durationLabel(view.links.ttl_seconds)}</span>
            </>
          ) : (
            <>
              Public, under <span className="font-mono text-[13px] break-all">{view.links.base_url}/</span>
            </>
          )}
        </Fact>
        <Fact label="If a write is refused">
          {view.fallback === "fail" ? "The generation fails and is refunded" : "The file is kept in Darkroom's storage"}
        </Fact>
        <Fact label="Verified">
          <DateTime date={view.verified_at} /> <span className="text-zinc-400">·</span>{" "}
          <RelativeTime date={view.verified_at} className="text-zinc-500" />
        </Fact>
      </dl>

      {(test.data || test.isError) && (
        <div className="px-5 pb-4">
          <TestOutcome result={test.data} error={test.isError ? errorMessage(test.error) : null} />
        </div>
      )}

      {canManage ? (
        <CardFooter className="flex-wrap justify-between gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" size="sm" loading={test.isPending} onClick={() => test.mutate({ accountId })}>
              {!test.isPending && <PlugZap aria-hidden />}
              {test.isPending ? "Testing…" : "Test connection"}
            </Button>
            <Button variant="secondary" size="sm" disabled={test.isPending} onClick={onReplace}>
              <RefreshCw aria-hidden />
              Replace
            </Button>
          </div>
          <Button
            variant="ghost"
            size="sm"
            className="text-red-600 hover:bg-red-50 hover:text-red-700"
            disabled={test.isPending}
            onClick={() => setRemoving(true)}
          >
            <Trash2 aria-hidden />
            Remove
          </Button>
          <RemoveDestinationDialog accountId={accountId} view={view} open={removing} onOpenChange={setRemoving} />
        </CardFooter>
      ) : (
        <CardFooter className="justify-start">
          <ReadOnlyNote>Only the primary owner can test, replace or remove the bucket</ReadOnlyNote>
        </CardFooter>
      )}
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 py-3 sm:grid-cols-[11rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-[13px] text-zinc-500">{label}</dt>
      <dd className="min-w-0 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}

const steps = { put: "writing the test object", get: "reading the test object back", delete: "deleting the test object" } as const;

function TestOutcome({ result, error }: { result: DestinationTestResult | undefined; error: string | null }) {
  const ok = result?.ok === true;
  const Icon = ok ? CheckCircle2 : XCircle;
  return (
    <p
      role="status"
      data-testid="storage-test-result"
      className={cn(
        "flex items-start gap-2 rounded-md px-3 py-2 text-sm",
        ok ? "bg-green-50 text-green-800 ring-1 ring-green-600/15 ring-inset" : "bg-red-50 text-red-800 ring-1 ring-red-600/15 ring-inset",
      )}
    >
      <Icon className={cn("mt-0.5 size-4 shrink-0", ok ? "text-green-600" : "text-red-500")} aria-hidden />
      <span>
        {result?.ok === true ? (
          <>
            <span className="font-medium">Connection works</span>: a test object was written, read back and deleted in{" "}
            <span className="font-medium tabular-nums">{result.latency_ms} ms</span>.
          </>
        ) : result ? (
          <>
            <span className="font-medium">The test failed {steps[result.step]}</span>: {result.message}
          </>
        ) : (
          <>
            <span className="font-medium">The test could not run</span>: {error}
          </>
        )}
      </span>
    </p>
  );
}
