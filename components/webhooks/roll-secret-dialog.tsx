"use client";

import { useMutation } from "@tanstack/react-query";
import { TriangleAlert } from "lucide-react";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Dialog, SecretReveal, toast, DialogActions, FormError } from "@/components/ui";

// Rolling replaces the secret at once (no overlap), so the dialog says so before, and shows the
// new secret after, once.

export function RollSecretDialog({
  accountId,
  webhookId,
  open,
  onOpenChange,
}: {
  accountId: string;
  webhookId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const [secret, setSecret] = useState<string | null>(null);
  const roll = useMutation(trpc.webhooks.rollSecret.mutationOptions({ onSuccess: (result) => setSecret(result.secret) }));

  function close() {
    onOpenChange(false);
    if (secret) toast.success("Signing secret rolled", { description: "Deliveries are now signed with the new secret." });
    setSecret(null);
    roll.reset();
  }

  if (secret) {
    return (
      <Dialog
        open={open}
        onOpenChange={(next) => (next ? onOpenChange(true) : close())}
        title="New signing secret"
        description="Every delivery from now on is signed with this secret. Put it in your receiver's configuration."
        footer={<Button onClick={close}>Done</Button>}
      >
        <SecretReveal label="Signing secret" value={secret} className="pb-2" />
      </Dialog>
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Roll signing secret?"
      description="A new secret is generated for this endpoint."
      footer={
        <DialogActions
          onCancel={close}
          label="Roll secret"
          variant="danger"
          pending={roll.isPending}
          onAction={() => roll.mutate({ accountId, webhookId })}
        />
      }
    >
      <div className="space-y-3 pb-2">
        <div className="flex gap-2.5 rounded-md border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
          <p>
            The current secret stops working immediately: requests signed from now on use the new one, and a receiver still checking the old
            secret will reject them until you update it.
          </p>
        </div>
        <FormError>{roll.isError && errorMessage(roll.error)}</FormError>
      </div>
    </Dialog>
  );
}
