"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Dialog, toast } from "@/components/ui";
import type { ApiKeyRecord } from "./key-types";

// Revoke: the key stops working at once (a rotated key's grace ends too); it stays listed for audit.

export function RevokeKeyDialog({ accountId, apiKey, open, onOpenChange }: { accountId: string; apiKey: ApiKeyRecord; open: boolean; onOpenChange: (open: boolean) => void }) {
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
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" loading={revoke.isPending} onClick={() => revoke.mutate({ accountId, keyId: apiKey.apikey_id })}>
            Revoke key
          </Button>
        </>
      }
    >
      <div className="space-y-3 pb-2">
        <KeyBox apiKey={apiKey} />
        {revoke.isError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {errorMessage(revoke.error)}
          </p>
        )}
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
