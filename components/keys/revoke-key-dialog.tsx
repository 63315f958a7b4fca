"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Dialog, toast, DialogActions, FormError } from "@/components/ui";
import type { ApiKeyRecord } from "./key-types";

// Revoke: the key stops working at once (a rotated key's grace ends too); it stays listed for audit.

export function RevokeKeyDialog({
  accountId,
  apiKey,
  open,
  onOpenChange,
}: {
  accountId: string;
  apiKey: ApiKeyRecord;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSuccess: async () => {
        onOpenChange(false);
        toast.success("API key revoked", { description: `${apiKey.apikey_name} (${apiKey.apikey_prefix}…) no longer works.` });
        await queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() });
      },
    }),
  );

  function close() {
    onOpenChange(false);
    revoke.reset();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Revoke this key?"
      description="Requests with it are refused from now on (ERR1002). The key stays listed, with its request log, for audit. This cannot be undone."
      footer={
        <DialogActions
          onCancel={close}
          label="Revoke key"
          variant="danger"
          pending={revoke.isPending}
          onAction={() => revoke.mutate({ accountId, keyId: apiKey.apikey_id })}
        />
      }
    >
      <div className="space-y-3 pb-2">
        <KeyBox apiKey={apiKey} />
        <FormError>{revoke.isError && errorMessage(revoke.error)}</FormError>
      </div>
    </Dialog>
  );
}

export function KeyBox({ apiKey }: { apiKey: Pick<ApiKeyRecord, "apikey_name" | "apikey_prefix"> }) {
  return (
    <div className="flex items-baseline justify-between gap-3 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2">
      <span className="min-w-0 truncate font-medium text-zinc-900">{apiKey.apikey_name}</span>
      <code className="shrink-0 font-mono text-xs text-zinc-500">{apiKey.apikey_prefix}…</code>
    </div>
  );
}
