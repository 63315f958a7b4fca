"use client";

import { useMutation } from "@tanstack/react-query";
import { LogOut, MonitorSmartphone } from "lucide-react";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { ConfirmDialog } from "@/components/team/confirm-dialog";
import { useTRPC } from "@/components/trpc/react";
import { Button, Card, CardBody } from "@/components/ui";

// Ends every session of the signed-in user at once (a lost laptop, a shared computer, a copied
// cookie): the server bumps the user's session version, so every other browser is signed out at
// its next request, and this browser signs out right after.

export function SessionsCard() {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const everywhere = useMutation(
    trpc.settings.signOutEverywhere.mutationOptions({
      onSuccess: () => {
        setLeaving(true);
        void signOut({ redirectTo: "/login" });
      },
    }),
  );
  return (
    <Card>
      <CardBody className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex gap-3">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-zinc-100 text-zinc-500">
            <MonitorSmartphone className="size-4.5" aria-hidden />
          </span>
          <div className="space-y-0.5">
            <p className="text-sm font-medium text-zinc-900">Every browser and device</p>
            <p className="text-sm text-zinc-500">
              Ends your sessions in every browser and device, this one included. API keys keep working.
            </p>
          </div>
        </div>
        <Button variant="secondary" onClick={() => setOpen(true)} className="self-start sm:self-center">
          <LogOut aria-hidden />
          Sign out everywhere
        </Button>
      </CardBody>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) everywhere.reset();
        }}
        title="Sign out everywhere?"
        description="Every browser and device signed in as you is signed out at its next request, and so is this one. You can sign in again with a new link."
        confirmLabel="Sign out everywhere"
        pending={everywhere.isPending || leaving}
        error={everywhere.error}
        onConfirm={() => everywhere.mutate()}
      />
    </Card>
  );
}
