"use client";

import { useQuery } from "@tanstack/react-query";
import { BellRing, Lock, Mail, Webhook } from "lucide-react";
import { useAccount } from "@/components/dashboard/account-context";
import { formatCredits } from "@/components/dashboard/format-credits";
import { useTRPC } from "@/components/trpc/react";
import { Badge, Card, CardBody, CardHeader, PageHeader, RelativeTime, Skeleton } from "@/components/ui";
import { ThresholdEditor } from "./threshold-editor";

const channels = [
  { icon: BellRing, title: "In the dashboard", body: "A notification under the bell, for everyone in the account." },
  { icon: Mail, title: "By e-mail", body: "To the account's owners." },
  {
    icon: Webhook,
    title: "As a webhook",
    body: "credits.low_balance, to endpoints subscribed to it (dead-lettered while an endpoint is disabled).",
  },
];

export function AlertsPage() {
  const { accountId } = useAccount();
  const trpc = useTRPC();
  const alerts = useQuery(trpc.alerts.get.queryOptions({ accountId }));

  return (
    <div className="space-y-8">
      <PageHeader title="Low-balance alerts" description="Hear about it before generations stop for lack of credits." />

      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader
            title="Thresholds"
            description="Each fires once when the balance drops below it, and re-arms when credits are added or refunded above it."
            actions={alerts.data ? <Badge tone="neutral">Balance {formatCredits(alerts.data.balance)}</Badge> : null}
          />
          <CardBody>
            {alerts.isPending ? (
              <div className="space-y-2">
                <Skeleton className="h-9 w-80" />
                <Skeleton className="h-9 w-80" />
              </div>
            ) : alerts.isError ? (
              <p className="text-sm text-red-600">The alerts could not be loaded.</p>
            ) : alerts.data.canEdit ? (
              <ThresholdEditor
                key={alerts.data.thresholds.map((t) => t.amount).join(",")}
                accountId={accountId}
                initial={alerts.data.thresholds}
                max={alerts.data.maxThresholds}
              />
            ) : (
              <div className="space-y-4">
                <p className="flex items-center gap-2 rounded-md bg-zinc-50 px-3 py-2 text-sm text-zinc-600">
                  <Lock className="size-4 text-zinc-400" aria-hidden />
                  Only the primary owner can change low-balance alerts.
                </p>
                {alerts.data.thresholds.length === 0 ? (
                  <p className="text-sm text-zinc-500">No thresholds: low-balance alerts are off.</p>
                ) : (
                  <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200">
                    {alerts.data.thresholds.map((threshold) => (
                      <li key={threshold.amount} className="flex items-center justify-between px-4 py-2.5 text-sm">
                        <span className="tabular-nums">Below {formatCredits(threshold.amount)} credits</span>
                        {threshold.armed ? (
                          <Badge tone="green" dot>
                            Armed
                          </Badge>
                        ) : (
                          <Badge tone="amber" dot>
                            Fired {threshold.lastFiredAt ? <RelativeTime date={threshold.lastFiredAt} /> : null}
                          </Badge>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Where alerts go" />
          <ul className="divide-y divide-zinc-100">
            {channels.map((channel) => (
              <li key={channel.title} className="flex gap-3 px-5 py-3.5">
                <channel.icon className="mt-0.5 size-4 shrink-0 text-zinc-400" aria-hidden />
                <div>
                  <p className="text-sm font-medium text-zinc-900">{channel.title}</p>
                  <p className="text-sm text-zinc-500">{channel.body}</p>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}
