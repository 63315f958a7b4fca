"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CircleCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Dialog, SecretReveal, DialogActions, FormError } from "@/components/ui";
import { AddEndpointForm, type AddEndpointValues } from "./add-endpoint-form";
import { apiErrorFields } from "@/components/trpc/api-error";
import { EndpointUrl } from "./endpoint-url";

// "Add endpoint": the form, then, once created, the signing secret, shown this one time. Done
// goes to the new endpoint's page.

const formId = "add-webhook-endpoint";

type Created = { webhookId: string; url: string; secret: string };

export function AddEndpointDialog({
  accountId,
  open,
  onOpenChange,
}: {
  accountId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [created, setCreated] = useState<Created | null>(null);
  // Bumped on every close so the next opening starts from an empty form.
  const [formKey, setFormKey] = useState(0);

  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async (endpoint) => {
        setCreated({ webhookId: endpoint.webhook_id, url: endpoint.webhook_url, secret: endpoint.secret });
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
    }),
  );

  const fieldErrors = create.error ? apiErrorFields(create.error) : {};
  // Errors that name a field are shown next to it; anything else above the buttons.
  const generalError = create.error && Object.keys(fieldErrors).length === 0 ? errorMessage(create.error) : null;

  function close() {
    onOpenChange(false);
    setCreated(null);
    create.reset();
    setFormKey((key) => key + 1);
  }

  function submit(values: AddEndpointValues) {
    create.mutate({
      accountId,
      url: values.url,
      description: values.description === "" ? null : values.description,
      events: values.events,
    });
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? onOpenChange(true) : close())}
        title={
          <span className="flex items-center gap-2">
            <CircleCheck className="size-5 text-green-600" aria-hidden />
            Endpoint added
          </span>
        }
        description="Use this secret to check that requests really come from Darkroom."
        footer={
          <Button
            onClick={() => {
              const href = `/dashboard/${accountId}/webhooks/${created.webhookId}`;
              close();
              router.push(href);
            }}
          >
            Done
          </Button>
        }
      >
        <div className="space-y-4 pb-2">
          <div className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2">
            <div className="text-xs text-zinc-500">Endpoint</div>
            <EndpointUrl url={created.url} />
          </div>
          <SecretReveal label="Signing secret" value={created.secret} />
          <p className="text-xs text-zinc-500">
            Every request carries <code className="font-mono text-zinc-700">X-Service-Signature: t=…,v1=…</code>, an HMAC-SHA256 of{" "}
            <code className="font-mono text-zinc-700">t.rawBody</code> keyed with this secret. If you lose it, roll a new one from the
            endpoint&apos;s page.
          </p>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Add webhook endpoint"
      description="Darkroom sends a signed POST request to this URL for every event you choose."
      size="md"
      footer={<DialogActions onCancel={close} label="Add endpoint" pending={create.isPending} form={formId} />}
    >
      <AddEndpointForm key={formKey} formId={formId} accountId={accountId} fieldErrors={fieldErrors} onSubmit={submit} />
      <FormError className="mb-2">{generalError}</FormError>
    </Dialog>
  );
}
