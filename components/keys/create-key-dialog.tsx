"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleCheck } from "lucide-react";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/react";
import { Button, Dialog, toast, DialogActions, FormError } from "@/components/ui";
import { CreateKeyForm, type CreateKeyValues } from "./create-key-form";
import { createKeyFieldErrors } from "./key-field-errors";
import { KeyReveal } from "./key-reveal";
import type { ApiBaseUrls, CreatedApiKey } from "./key-types";

// "Create API key": the form, then, once created, the full key, shown this one time.

const formId = "create-api-key";

export function CreateKeyDialog({
  accountId,
  apiBaseUrls,
  open,
  onOpenChange,
}: {
  accountId: string;
  apiBaseUrls: ApiBaseUrls;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const account = useQuery({ ...trpc.account.get.queryOptions({ accountId }), enabled: open });
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  // Bumped on every close so the next opening starts from an empty form.
  const [formKey, setFormKey] = useState(0);

  const create = useMutation(
    trpc.keys.create.mutationOptions({
      onSuccess: async (key) => {
        setCreated(key);
        // The new key's spend budget (the keys table's bar) comes with the list.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.spend.pathKey() }),
        ]);
      },
    }),
  );
  const { fields, general } = createKeyFieldErrors(create.error);

  function close() {
    onOpenChange(false);
    if (created) toast.success("API key created", { description: `${created.apikey_name} (${created.apikey_prefix}…)` });
    setCreated(null);
    create.reset();
    setFormKey((key) => key + 1);
  }

  function submit(values: CreateKeyValues) {
    create.mutate({ accountId, ...values });
  }

  if (created) {
    return (
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? onOpenChange(true) : close())}
        size="lg"
        title={
          <span className="flex items-center gap-2">
            <CircleCheck className="size-5 text-green-600" aria-hidden />
            API key created
          </span>
        }
        description={`“${created.apikey_name}” works in the ${created.region} region from now on.`}
        footer={<Button onClick={close}>Done</Button>}
      >
        <KeyReveal apiKey={created.key} region={created.region} apiBaseUrls={apiBaseUrls} scopes={created.scopes} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Create API key"
      description="Requests to the API authenticate with this key. Its full value is shown once."
      size="lg"
      footer={<DialogActions onCancel={close} label="Create key" pending={create.isPending} form={formId} />}
    >
      <CreateKeyForm key={formKey} formId={formId} accountRegion={account.data?.region} fieldErrors={fields} onSubmit={submit} />
      <FormError className="mb-2">{general}</FormError>
    </Dialog>
  );
}
