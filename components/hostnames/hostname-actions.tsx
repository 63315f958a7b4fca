"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RefreshCw, Trash2 } from "lucide-react";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Dialog, toast, DialogActions, FormError } from "@/components/ui";
import type { CustomHostnameRecord } from "./hostname-types";

// The owners' buttons: "Check now" (a pending or failed hostname starts a new 24 h verification,
// checked at once) and "Remove" (confirmed; the hostname stops serving at once).

export function HostnameActions({ accountId, hostname }: { accountId: string; hostname: CustomHostnameRecord }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.hostnames.pathKey() });

  const check = useMutation(
    trpc.hostnames.check.mutationOptions({
      onSuccess: async () => {
        toast.success("Check requested", { description: `${hostname.hostname} is being checked now.` });
        await refresh();
      },
      onError: (error) => toast.error("Could not request a check", { description: errorMessage(error) }),
    }),
  );
  const remove = useMutation(
    trpc.hostnames.remove.mutationOptions({
      onSuccess: async () => {
        setRemoving(false);
        toast.success("Hostname removed", { description: `${hostname.hostname} no longer serves the API.` });
        await refresh();
      },
    }),
  );

  if (hostname.status === "removing") return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {hostname.status !== "active" && (
        <Button variant="secondary" size="sm" loading={check.isPending} onClick={() => check.mutate({ accountId })}>
          {!check.isPending && <RefreshCw aria-hidden />}
          Check now
        </Button>
      )}
      <Button variant="secondary" size="sm" onClick={() => setRemoving(true)}>
        <Trash2 aria-hidden />
        Remove
      </Button>
      <Dialog
        open={removing}
        onOpenChange={(open) => {
          setRemoving(open);
          if (!open) remove.reset();
        }}
        title="Remove this hostname?"
        description="Requests to it stop being served as this account at once. You can add it again later."
        footer={
          <DialogActions
            onCancel={() => setRemoving(false)}
            label="Remove hostname"
            variant="danger"
            pending={remove.isPending}
            onAction={() => remove.mutate({ accountId })}
          />
        }
      >
        <div className="space-y-3 pb-2">
          <p className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[13px] break-all text-zinc-900">
            {hostname.hostname}
          </p>
          <FormError>{remove.isError && errorMessage(remove.error)}</FormError>
        </div>
      </Dialog>
    </div>
  );
}
