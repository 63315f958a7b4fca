"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { toast, TypedConfirmDialog } from "@/components/ui";
import type { ApiKeyRecord } from "./key-types";
import { KeyBox } from "./revoke-key-dialog";

// Delete: the key and its request log go for good, so the name must be typed to confirm.

export type DeleteKeyDialogProps = {
  accountId: string;
  apiKey: ApiKeyRecord;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
};

export function DeleteKeyDialog({ accountId, apiKey, open, onOpenChange, onDeleted }: DeleteKeyDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.keys.delete.mutationOptions({
      onSuccess: async () => {
        onOpenChange(false);
        toast.success("API key deleted", { description: `${apiKey.apikey_name} (${apiKey.apikey_prefix}…) and its request log are gone.` });
        onDeleted?.();
        // Marked stale without refetching: a detail page's own queries would only answer "not found".
        await queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey(), refetchType: onDeleted ? "none" : "active" });
        await queryClient.invalidateQueries({ queryKey: trpc.requestLogs.pathKey(), refetchType: "none" });
      },
    }),
  );

  return (
    <TypedConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete this key?"
      description="The key stops working and is removed with its whole request log. This cannot be undone; revoke it instead to keep the record."
      expected={apiKey.apikey_name}
      label={<>Type the key&apos;s name to confirm</>}
      confirmLabel="Delete key"
      pending={remove.isPending}
      error={remove.isError ? errorMessage(remove.error) : null}
      onConfirm={() => remove.mutate({ accountId, keyId: apiKey.apikey_id })}
      onCancel={() => remove.reset()}
    >
      <KeyBox apiKey={apiKey} />
    </TypedConfirmDialog>
  );
}
