"use client";

import { useQuery } from "@tanstack/react-query";
import { Clock, HardDrive, Link2, ShieldCheck, Sparkles, Trash2, type LucideIcon } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { QueryStates } from "@/components/dashboard/query-states";
import { planLabel } from "@/components/billing/billing-format";
import { useTRPC } from "@/components/trpc/react";
import { BackLink, Card, CardBody, CardHeader, PageHeader, ReadOnlyNote, Skeleton } from "@/components/ui";
import { planLimits, planNames, type PlanName } from "@/server/plans/plan-limits";
import { DestinationForm } from "./destination-form";
import { DestinationSummary } from "./destination-summary";

// Settings › Storage: where generation outputs are written. Darkroom's storage by default (kept
// for the plan's output retention); or the account's own S3-compatible bucket, which the primary
// owner connects, tests, replaces or removes. Everyone else in the account reads it.

const points: Array<{ icon: LucideIcon; title: string; body: string }> = [
  {
    icon: Sparkles,
    title: "Every output, every model",
    body: "Images and videos from every provider are written to your bucket under your prefix, with their content type and a checksum.",
  },
  {
    icon: Link2,
    title: "Links on your terms",
    body: "Presigned links that live the lifetime you choose, or plain links under your bucket's public URL or CDN.",
  },
  {
    icon: ShieldCheck,
    title: "Checked before it is saved",
    body: "A test object is written, read back and deleted first. The secret is encrypted at rest and never shown again.",
  },
  {
    icon: Clock,
    title: "Failures are loud",
    body: "A write the bucket refuses is retried 3 times, then the generation fails and is refunded, unless you let Darkroom's storage keep the file.",
  },
  {
    icon: Trash2,
    title: "Yours to keep",
    body: "Retention never deletes from your bucket; deleting a generation does. Expire old files with a lifecycle rule.",
  },
];

function retentionLabel(seconds: number): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
  return seconds < 2 * 86_400 ? plural(Math.round(seconds / 3_600), "hour") : plural(Math.round(seconds / 86_400), "day");
}

export function StoragePage() {
  const { accountId, isPrimaryOwner } = useAccount();
  const trpc = useTRPC();
  const destination = useQuery(trpc.storage.destination.queryOptions({ accountId }));
  const account = useQuery(trpc.account.get.queryOptions({ accountId }));
  const [replacing, setReplacing] = useState(false);

  const plan = account.data && (planNames as readonly string[]).includes(account.data.plan) ? (account.data.plan as PlanName) : null;
  const retention = plan ? retentionLabel(planLimits[plan].retention.outputFiles) : null;

  return (
    <div className="space-y-8">
      <div className="space-y-4">
        <BackLink href={`/dashboard/${accountId}/settings`}>Settings</BackLink>
        <PageHeader
          title="Storage"
          description="Where the files your generations produce are written: Darkroom's storage, or your own S3-compatible bucket."
        />
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <QueryStates query={destination} subject="The storage destination" placement="page" loading={<StorageSkeleton />}>
            {(view) =>
              view && !replacing ? (
                <DestinationSummary accountId={accountId} view={view} canManage={isPrimaryOwner} onReplace={() => setReplacing(true)} />
              ) : view ? (
                <DestinationForm
                  key="replace"
                  accountId={accountId}
                  current={view}
                  retention={retention}
                  onSaved={() => setReplacing(false)}
                  onCancel={() => setReplacing(false)}
                />
              ) : (
                <>
                  <DarkroomStorageCard plan={plan} retention={retention} canManage={isPrimaryOwner} />
                  {isPrimaryOwner && (
                    <DestinationForm
                      key="connect"
                      accountId={accountId}
                      current={null}
                      retention={retention}
                      onSaved={() => setReplacing(false)}
                    />
                  )}
                </>
              )
            }
          </QueryStates>
        </div>

        <Card>
          <CardHeader title="How your own bucket works" />
          <ul className="divide-y divide-zinc-100">
            {points.map((point) => (
              <li key={point.title} className="flex gap-3 px-5 py-3.5">
                <point.icon className="mt-0.5 size-4 shrink-0 text-zinc-400" aria-hidden />
                <div className="space-y-0.5">
                  <p className="text-sm font-medium text-zinc-900">{point.title}</p>
                  <p className="text-[13px] leading-relaxed text-zinc-500">{point.body}</p>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}

/** No bucket: what Darkroom's own storage does with the files on this plan. */
function DarkroomStorageCard({ plan, retention, canManage }: { plan: PlanName | null; retention: string | null; canManage: boolean }) {
  return (
    <Card role="region" aria-labelledby="storage-darkroom-title">
      <CardBody className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full border border-zinc-200 bg-zinc-50">
          <HardDrive className="size-5 text-zinc-500" aria-hidden />
        </span>
        <div className="min-w-0 flex-1 space-y-3">
          <div className="space-y-1">
            <h2 id="storage-darkroom-title" className="text-sm font-semibold text-zinc-900">
              Outputs are stored by Darkroom
            </h2>
            <p className="text-sm leading-relaxed text-zinc-500">
              {retention && plan ? (
                <>
                  On the {planLabel(plan)} plan, each output file is kept for <span className="font-medium text-zinc-700">{retention}</span>{" "}
                  after its generation completes, then deleted. Its links are signed and stop working with it.
                </>
              ) : (
                "Each output file is kept for the plan's output retention after its generation completes, then deleted. Its links are signed and stop working with it."
              )}{" "}
              {canManage ? "Connect a bucket to keep outputs for as long as you like." : ""}
            </p>
          </div>
          {!canManage && <ReadOnlyNote>Only the primary owner can connect a bucket</ReadOnlyNote>}
        </div>
      </CardBody>
    </Card>
  );
}

function StorageSkeleton() {
  return (
    <Card aria-busy>
      <div className="flex items-center gap-3 border-b border-zinc-200 px-5 py-4">
        <Skeleton className="size-9 rounded-lg" />
        <div className="flex-1 space-y-2">
          <Skeleton className="w-32" />
          <Skeleton className="w-64" />
        </div>
      </div>
      <CardBody className="space-y-4">
        {[0, 1, 2, 3, 4].map((row) => (
          <div key={row} className="grid gap-4 sm:grid-cols-[11rem_minmax(0,1fr)]">
            <Skeleton className="w-20" />
            <Skeleton className={row % 2 ? "w-1/2" : "w-2/3"} />
          </div>
        ))}
      </CardBody>
    </Card>
  );
}
