"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { RotateCw, X } from "lucide-react";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, toast } from "@/components/ui";
import { ConfirmDialog } from "./confirm-dialog";
import type { TeamInvitationRow } from "./team-types";

// Resend (a new link for 7 more days; the old link stops working) and revoke.

export function InvitationRowActions({ accountId, invitation }: { accountId: string; invitation: TeamInvitationRow }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });

  const resend = useMutation(
    trpc.team.resendInvitation.mutationOptions({
      onSuccess: async () => {
        toast.success("Invitation sent again", {
          description: `${invitation.email} has a new link, valid for 7 days. The previous link no longer works.`,
        });
        await refresh();
      },
      onError: (error) => toast.error("The invitation could not be sent again", { description: errorMessage(error) }),
    }),
  );
  const revoke = useMutation(
    trpc.team.revokeInvitation.mutationOptions({
      onSuccess: async () => {
        setRevoking(false);
        toast.success("Invitation revoked", { description: `The link sent to ${invitation.email} no longer works.` });
        await refresh();
      },
    }),
  );

  return (
    <div className="flex items-center justify-end gap-0.5 sm:gap-1">
      <Button
        variant="ghost"
        size="sm"
        loading={resend.isPending}
        onClick={() => resend.mutate({ accountId, invitationId: invitation.invitationId })}
        aria-label={`Resend invitation to ${invitation.email}`}
      >
        {resend.isPending ? null : <RotateCw aria-hidden />}
        <span className="hidden sm:inline">Resend</span>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setRevoking(true)}
        aria-label={`Revoke invitation to ${invitation.email}`}
        className="text-red-600 hover:bg-red-50 hover:text-red-700"
      >
        <X aria-hidden />
        <span className="hidden sm:inline">Revoke</span>
      </Button>
      <ConfirmDialog
        open={revoking}
        onOpenChange={(open) => {
          setRevoking(open);
          if (!open) revoke.reset();
        }}
        title="Revoke this invitation?"
        description={`The link sent to ${invitation.email} stops working at once. You can invite the address again later.`}
        confirmLabel="Revoke invitation"
        pending={revoke.isPending}
        error={revoke.error}
        onConfirm={() => revoke.mutate({ accountId, invitationId: invitation.invitationId })}
      />
    </div>
  );
}
