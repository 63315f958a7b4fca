"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { apiErrorFields, asSentence } from "@/components/trpc/api-error";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Dialog, formatDateTime, Field, Input, toast, DialogActions, FormError } from "@/components/ui";
import { KeyReveal } from "./key-reveal";
import type { ApiBaseUrls, ApiKeyRecord } from "./key-types";

// Rotation: a new key with the same scopes, allowlist and expiry; the old one keeps working for
// the grace period (1–168 hours, default 24). The new key is shown once.

const formId = "rotate-api-key";

export type RotateKeyDialogProps = {
  accountId: string;
  apiKey: ApiKeyRecord;
  apiBaseUrls: ApiBaseUrls;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

export function RotateKeyDialog({ accountId, apiKey, apiBaseUrls, open, onOpenChange }: RotateKeyDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [graceHours, setGraceHours] = useState("24");
  const [newKey, setNewKey] = useState<{ key: string; validUntil: string } | null>(null);
  const rotate = useMutation(
    trpc.keys.rotate.mutationOptions({
      onSuccess: async (result) => {
        setNewKey({ key: result.key, validUntil: result.old_key_valid_until });
        // The new key's spend budget (the keys table's bar) comes with the list.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.spend.pathKey() }),
        ]);
      },
    }),
  );

  const fields = rotate.error ? apiErrorFields(rotate.error) : {};
  const graceError = fields.graceHours ?? fields.grace_hours;
  const generalError = rotate.error && !graceError ? errorMessage(rotate.error) : null;

  function close() {
    onOpenChange(false);
    if (newKey)
      toast.success("API key rotated", { description: `The old key works until ${formatDateTime(newKey.validUntil, "datetime")}.` });
    setNewKey(null);
    setGraceHours("24");
    rotate.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    rotate.mutate({ accountId, keyId: apiKey.apikey_id, graceHours: Number(graceHours) });
  }

  if (newKey) {
    return (
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? onOpenChange(true) : close())}
        size="lg"
        title={`New key for “${apiKey.apikey_name}”`}
        description={`The old key (${apiKey.apikey_prefix}…) keeps working until ${formatDateTime(newKey.validUntil, "datetime")}. Switch your clients to this one before then.`}
        footer={<Button onClick={close}>Done</Button>}
      >
        <KeyReveal apiKey={newKey.key} region={apiKey.region} apiBaseUrls={apiBaseUrls} scopes={apiKey.scopes} />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Rotate this key?"
      description={`A new key with the same scopes, allowlist and expiry replaces ${apiKey.apikey_prefix}…. The old key keeps working during the grace period, then stops.`}
      footer={<DialogActions onCancel={close} label="Rotate key" pending={rotate.isPending} form={formId} />}
    >
      <form id={formId} onSubmit={submit} className="space-y-3 pb-2" noValidate>
        <Field label="Grace period (hours)" hint="From 1 to 168 hours (one week)." error={graceError ? asSentence(graceError) : undefined}>
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={168}
            step={1}
            value={graceHours}
            onChange={(event) => setGraceHours(event.target.value)}
            className="w-32"
            autoFocus
          />
        </Field>
        <FormError>{generalError}</FormError>
      </form>
    </Dialog>
  );
}
