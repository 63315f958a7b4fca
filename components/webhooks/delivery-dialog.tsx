"use client";

import { skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Info, RotateCw } from "lucide-react";
import { useState } from "react";
import { useAccount } from "@/components/dashboard/account-context";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, CopyButton, Dialog, RelativeTime, Skeleton } from "@/components/ui";
import { AttemptsTimeline } from "./attempts-timeline";
import { DeliveryPayload } from "./delivery-payload";
import { DeliveryStatusBadge } from "./delivery-status-badge";
import { EndpointUrl } from "./endpoint-url";
import { EventName } from "./event-name";
import { ResendOutcome } from "./resend-outcome";

// One delivery: what was sent, and every attempt to send it. Refreshes every 2 s while pending.
// Feedback for "Re-send" stays inside the dialog: toasts render behind an open <dialog>.

export type DeliveryDialogProps = {
  deliveryId: string | null;
  onClose: () => void;
  /** Whether an endpoint is enabled (re-sending needs it); undefined while unknown. */
  isEnabled: (webhookId: string) => boolean | undefined;
};

export function DeliveryDialog({ deliveryId, onClose, isEnabled }: DeliveryDialogProps) {
  const { accountId, isOwner } = useAccount();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // The attempt a re-send started from, to tell how it went once the attempts come in.
  const [resentFrom, setResentFrom] = useState<number | null>(null);

  const delivery = useQuery({
    ...trpc.webhooks.delivery.queryOptions(deliveryId ? { accountId, deliveryId } : skipToken),
    refetchInterval: (query) => (query.state.data?.status === "pending" ? 2000 : false),
  });

  const resend = useMutation(
    trpc.webhooks.resendDelivery.mutationOptions({
      onSuccess: async (result) => {
        setResentFrom(result.from_attempt);
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
    }),
  );

  function close() {
    setResentFrom(null);
    resend.reset();
    onClose();
  }

  const data = delivery.data;
  const canResend = isOwner && data?.status === "failed";
  const endpointEnabled = data ? isEnabled(data.webhook_id) : undefined;

  return (
    <Dialog
      open={deliveryId !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      size="lg"
      title={data ? <EventName event={data.event} className="text-base font-semibold" /> : "Delivery"}
      description={data ? <EndpointUrl url={data.webhook_url} className="text-zinc-500" /> : undefined}
      footer={
        <>
          {canResend && (
            <div className="mr-auto flex min-w-0 items-center gap-2 text-xs text-zinc-500">
              {endpointEnabled === false && (
                <>
                  <Info className="size-3.5 shrink-0" aria-hidden />
                  <span>Enable the endpoint to re-send</span>
                </>
              )}
            </div>
          )}
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
          {canResend && (
            <Button
              loading={resend.isPending}
              disabled={endpointEnabled === false}
              title={endpointEnabled === false ? "Enable the endpoint to re-send" : undefined}
              onClick={() => deliveryId && resend.mutate({ accountId, deliveryId })}
            >
              <RotateCw aria-hidden />
              Re-send
            </Button>
          )}
        </>
      }
    >
      {delivery.isPending ? (
        <div className="space-y-3 pb-2">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : delivery.isError ? (
        <p role="alert" className="mb-2 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          {errorMessage(delivery.error)}
        </p>
      ) : data ? (
        <div className="space-y-6 pb-3">
          {resend.isError ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {errorMessage(resend.error)}
            </p>
          ) : resentFrom !== null ? (
            <ResendOutcome status={data.status} fromAttempt={resentFrom} attempts={data.attempt_count} />
          ) : null}
          <dl className="grid grid-cols-2 gap-x-6 gap-y-4 rounded-lg border border-zinc-200 px-4 py-3.5 sm:grid-cols-4">
            <Fact label="Status">
              <DeliveryStatusBadge status={data.status} />
            </Fact>
            <Fact label="Attempts">
              <span className="tabular-nums">{data.attempt_count}</span>
            </Fact>
            <Fact label="Created">
              <RelativeTime date={data.created_at} />
            </Fact>
            <Fact label={data.delivered_at ? "Delivered" : "Last attempt"}>
              {data.delivered_at ? (
                <RelativeTime date={data.delivered_at} />
              ) : data.last_attempt_at ? (
                <RelativeTime date={data.last_attempt_at} />
              ) : (
                "—"
              )}
            </Fact>
            <Fact label="Delivery ID" className="col-span-2 sm:col-span-4">
              <span className="flex items-center gap-1">
                <code className="truncate font-mono text-[13px] text-zinc-800">{data.delivery_id}</code>
                <CopyButton value={data.delivery_id} label="Copy delivery ID" className="size-7" />
              </span>
            </Fact>
          </dl>

          <section className="space-y-3">
            <h3 className="text-sm font-semibold text-zinc-900">Attempts</h3>
            <AttemptsTimeline attempts={data.attempts} waiting={data.status === "pending"} />
            {data.status === "pending" && data.attempts.length > 0 && (
              <p className="text-xs text-zinc-500">Retrying: up to 5 attempts within about 5 seconds. This view updates by itself.</p>
            )}
          </section>

          <DeliveryPayload payload={data.payload} />
        </div>
      ) : null}
    </Dialog>
  );
}

function Fact({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={className}>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="mt-1 min-w-0 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}
