"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Dialog, toast, DialogActions, FormError } from "@/components/ui";
import { EndpointUrl } from "./endpoint-url";

export function DeleteEndpointDialog({
  accountId,
  webhookId,
  url,
  open,
  onOpenChange,
}: {
  accountId: string;
  webhookId: string;
  url: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        onOpenChange(false);
        toast.success("Endpoint deleted", { description: url });
        router.push(`/dashboard/${accountId}/webhooks`);
        // Marked stale without refetching: this page's own queries would only answer "not found".
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey(), refetchType: "none" });
      },
    }),
  );

  function close() {
    onOpenChange(false);
    remove.reset();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Delete this endpoint?"
      description="It stops receiving events at once. Its delivery log and dead letters are deleted with it. This cannot be undone."
      size="md"
      footer={
        <DialogActions
          onCancel={close}
          label="Delete endpoint"
          variant="danger"
          pending={remove.isPending}
          onAction={() => remove.mutate({ accountId, webhookId })}
        />
      }
    >
      <div className="space-y-3 pb-2">
        <div className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2">
          <EndpointUrl url={url} />
        </div>
        <FormError>{remove.isError && errorMessage(remove.error)}</FormError>
      </div>
    </Dialog>
  );
}
