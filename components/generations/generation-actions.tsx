"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Ban, Trash2 } from "lucide-react";
import { useState } from "react";
import { formatCredits } from "@/components/dashboard/format-credits";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Dialog, toast, DialogActions, FormError } from "@/components/ui";

// Owners' actions on one generation: cancel while it is in flight (credits refunded), delete its
// files and mark it removed. Each asks first; the server decides whether it is still allowed.

export function GenerationActions({
  accountId,
  generationId,
  cancelable,
  removed,
}: {
  accountId: string;
  generationId: string;
  cancelable: boolean;
  removed: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<"cancel" | "delete" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.generations.pathKey() });

  const cancel = useMutation(
    trpc.generations.cancel.mutationOptions({
      onSuccess: async (result) => {
        setConfirm(null);
        toast.success("Generation canceled", {
          description: result.credits_refunded
            ? `${formatCredits(result.credits_refunded_amount)} credits refunded`
            : "Nothing was reserved to refund",
        });
        await refresh();
      },
      // Usually "no longer cancelable": show what the generation became meanwhile.
      onError: () => refresh(),
    }),
  );
  const remove = useMutation(
    trpc.generations.delete.mutationOptions({
      onSuccess: async (result) => {
        setConfirm(null);
        toast.success("Generation deleted", {
          description: `${result.files_deleted} output ${result.files_deleted === 1 ? "file" : "files"} removed`,
        });
        await refresh();
      },
    }),
  );
  const pending = confirm === "cancel" ? cancel : remove;

  function close() {
    setConfirm(null);
    cancel.reset();
    remove.reset();
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      {cancelable && (
        <Button variant="secondary" onClick={() => setConfirm("cancel")}>
          <Ban aria-hidden />
          Cancel generation
        </Button>
      )}
      {!removed && (
        <Button variant="secondary" className="text-red-600 hover:text-red-700" onClick={() => setConfirm("delete")}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      )}
      <Dialog
        open={confirm !== null}
        onOpenChange={(open) => (open ? undefined : close())}
        title={confirm === "cancel" ? "Cancel this generation?" : "Delete this generation?"}
        description={
          confirm === "cancel"
            ? "The provider is asked to stop and the reserved credits are refunded. A result that arrives later is discarded."
            : "Its output files are deleted and their links stop working. The record and its ledger entries stay for the account's history. This cannot be undone."
        }
        size="md"
        footer={
          <DialogActions
            onCancel={close}
            cancelLabel="Keep it"
            label={confirm === "cancel" ? "Cancel generation" : "Delete generation"}
            variant="danger"
            pending={pending.isPending}
            onAction={() =>
              confirm === "cancel" ? cancel.mutate({ accountId, generationId }) : remove.mutate({ accountId, generationId })
            }
          />
        }
      >
        <FormError className="mb-2">{pending.isError && errorMessage(pending.error)}</FormError>
      </Dialog>
    </div>
  );
}
