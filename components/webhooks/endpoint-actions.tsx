"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Power, PowerOff, Send, Trash2 } from "lucide-react";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, toast } from "@/components/ui";
import { DeleteEndpointDialog } from "./delete-endpoint-dialog";
import { RollSecretDialog } from "./roll-secret-dialog";
import type { WebhookEndpointRecord } from "./webhook-types";

// The owners' buttons on an endpoint's page. Members never see them (and the server refuses).

export function EndpointActions({
  accountId,
  endpoint,
  onTestSent,
}: {
  accountId: string;
  endpoint: WebhookEndpointRecord;
  onTestSent: (deliveryId: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [rolling, setRolling] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const webhookId = endpoint.webhook_id;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });

  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: async (result) => {
        toast.success("Test event sent", {
          description: "A webhook.test delivery is on its way.",
          action: { label: "View", onClick: () => onTestSent(result.delivery_id) },
        });
        await refresh();
      },
      onError: (error) => toast.error("Could not send a test event", { description: errorMessage(error) }),
    }),
  );

  const setEnabled = useMutation(
    trpc.webhooks.setEnabled.mutationOptions({
      onSuccess: async (result) => {
        if (result.enabled)
          toast.success("Endpoint enabled", {
            description: "Events are delivered again. Replay the dead letters you want to catch up on.",
          });
        else toast.success("Endpoint disabled", { description: "Events are kept as dead letters until you enable it again." });
        await refresh();
      },
      onError: (error) =>
        toast.error(endpoint.webhook_enabled ? "Could not disable the endpoint" : "Could not enable the endpoint", {
          description: errorMessage(error),
        }),
    }),
  );

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant="secondary"
        size="sm"
        loading={sendTest.isPending}
        disabled={!endpoint.webhook_enabled}
        title={endpoint.webhook_enabled ? "Send a signed webhook.test event to this endpoint" : "Enable the endpoint to send a test event"}
        onClick={() => sendTest.mutate({ accountId, webhookId })}
      >
        {!sendTest.isPending && <Send aria-hidden />}
        Send test event
      </Button>
      <Button
        variant="secondary"
        size="sm"
        loading={setEnabled.isPending}
        onClick={() => setEnabled.mutate({ accountId, webhookId, enabled: !endpoint.webhook_enabled })}
      >
        {!setEnabled.isPending && (endpoint.webhook_enabled ? <PowerOff aria-hidden /> : <Power aria-hidden />)}
        {endpoint.webhook_enabled ? "Disable" : "Enable"}
      </Button>
      <Button variant="secondary" size="sm" onClick={() => setRolling(true)}>
        <KeyRound aria-hidden />
        Roll secret
      </Button>
      <Button variant="ghost" size="sm" className="text-red-600 hover:bg-red-50 hover:text-red-700" onClick={() => setDeleting(true)}>
        <Trash2 aria-hidden />
        Delete
      </Button>
      <RollSecretDialog accountId={accountId} webhookId={webhookId} open={rolling} onOpenChange={setRolling} />
      <DeleteEndpointDialog
        accountId={accountId}
        webhookId={webhookId}
        url={endpoint.webhook_url}
        open={deleting}
        onOpenChange={setDeleting}
      />
    </div>
  );
}
