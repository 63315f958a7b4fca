"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Dialog, DialogActions, FormError, toast } from "@/components/ui";
import { hostOf } from "./storage-format";
import type { DestinationView } from "./storage-types";

// "Remove" on the Storage page, confirmed: new outputs go to Darkroom's storage again; what is
// already in the bucket stays there (Darkroom never deletes it), though its signed links stop.

export function RemoveDestinationDialog({
  accountId,
  view,
  open,
  onOpenChange,
}: {
  accountId: string;
  view: DestinationView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.storage.removeDestination.mutationOptions({
      onSuccess: async () => {
        onOpenChange(false);
        queryClient.setQueryData(trpc.storage.destination.queryKey({ accountId }), null);
        toast.success("Bucket removed", { description: "New outputs are stored by Darkroom again." });
        await queryClient.invalidateQueries({ queryKey: trpc.account.recentActivity.pathKey() });
      },
    }),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) remove.reset();
      }}
      title="Remove this bucket?"
      description="New outputs are stored by Darkroom again, for the plan's output retention."
      footer={
        <DialogActions
          onCancel={() => onOpenChange(false)}
          label="Remove bucket"
          variant="danger"
          pending={remove.isPending}
          onAction={() => remove.mutate({ accountId })}
        />
      }
    >
      <div className="space-y-3 pb-2">
        <p className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[13px] break-all text-zinc-900">
          {hostOf(view.endpoint)}/{view.bucket}
          {view.prefix ? `/${view.prefix}` : ""}
        </p>
        <p className="text-zinc-600">
          Files already in the bucket stay there: Darkroom does not delete them, and they are yours to keep or expire.
          {view.links.kind === "presigned" ? " The presigned links Darkroom issued for them stop working." : ""}
        </p>
        <FormError>{remove.isError && errorMessage(remove.error)}</FormError>
      </div>
    </Dialog>
  );
}
