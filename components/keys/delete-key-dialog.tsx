"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Dialog, Field, Input, toast } from "@/components/ui";
import type { ApiKeyRecord } from "./key-types";
import { KeyBox } from "./revoke-key-dialog";

// Delete: the key and its request log go for good, so the name must be typed to confirm.

export type DeleteKeyDialogProps = { accountId: string; apiKey: ApiKeyRecord; open: boolean; onOpenChange: (open: boolean) => void; onDeleted?: () => void };

export function DeleteKeyDialog({ accountId, apiKey, open, onOpenChange, onDeleted }: DeleteKeyDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState("");
  const remove = useMutation(
    trpc.keys.delete.mutationOptions({
      onSuccess: async () => {
        onOpenChange(false);
        setTyped("");
        toast.success("API key deleted", { description: `${apiKey.apikey_name} (${apiKey.apikey_prefix}…) and its request log are gone.` });
        onDeleted?.();
        // Marked stale without refetching: a detail page's own queries would only answer "not found".
        await queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey(), refetchType: onDeleted ? "none" : "active" });
        await queryClient.invalidateQueries({ queryKey: trpc.requestLogs.pathKey(), refetchType: "none" });
      },
    }),
  );
  const confirmed = typed === apiKey.apikey_name;

  function close() {
    onOpenChange(false);
    setTyped("");
    remove.reset();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Delete this key?"
      description="The key stops working and is removed with its whole request log. This cannot be undone; revoke it instead to keep the record."
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button variant="danger" disabled={!confirmed} loading={remove.isPending} onClick={() => remove.mutate({ accountId, keyId: apiKey.apikey_id })}>
            Delete key
          </Button>
        </>
      }
    >
      <form
        className="space-y-3 pb-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed) remove.mutate({ accountId, keyId: apiKey.apikey_id });
        }}
      >
        <KeyBox apiKey={apiKey} />
        <Field label={<>Type the key&apos;s name to confirm</>}>
          <Input value={typed} onChange={(event) => setTyped(event.target.value)} placeholder={apiKey.apikey_name} autoComplete="off" spellCheck={false} autoFocus />
        </Field>
        {remove.isError && (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {errorMessage(remove.error)}
          </p>
        )}
      </form>
    </Dialog>
  );
}
