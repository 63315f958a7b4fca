"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Crown, UserMinus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/react";
import { Button, toast } from "@/components/ui";
import { ConfirmDialog } from "./confirm-dialog";
import type { TeamMemberRow } from "./team-types";

// An owner's actions on another member: remove; and, for the primary owner, hand over primary
// ownership. The primary owner's own row has none (the server refuses either way).

export function MemberRowActions({
  accountId,
  member,
  viewerIsPrimaryOwner,
}: {
  accountId: string;
  member: TeamMemberRow;
  viewerIsPrimaryOwner: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [removing, setRemoving] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const who = member.name ?? member.email;

  const remove = useMutation(
    trpc.team.remove.mutationOptions({
      onSuccess: async () => {
        setRemoving(false);
        toast.success("Member removed", { description: `${who} no longer has access to this account.` });
        await queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });
      },
    }),
  );
  const transfer = useMutation(
    trpc.team.transferPrimaryOwnership.mutationOptions({
      onSuccess: async () => {
        setTransferring(false);
        toast.success("Primary ownership transferred", { description: `${who} is the primary owner now; you are an owner.` });
        // The viewer's own role changed: the layout (switcher, account context) reads it on the server.
        router.refresh();
        await queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });
      },
    }),
  );

  return (
    <div className="flex items-center justify-end gap-0.5 sm:gap-1">
      {viewerIsPrimaryOwner ? (
        <Button
          variant="ghost"
          size="sm"
          className="px-2 lg:px-3"
          onClick={() => setTransferring(true)}
          aria-label={`Make ${who} primary owner`}
          title="Make primary owner"
        >
          <Crown aria-hidden />
          <span className="hidden lg:inline">Make primary</span>
        </Button>
      ) : null}
      <Button
        variant="ghost"
        size="sm"
        onClick={() => setRemoving(true)}
        aria-label={`Remove ${who}`}
        title="Remove from account"
        className="px-2 text-red-600 hover:bg-red-50 hover:text-red-700 lg:px-3"
      >
        <UserMinus aria-hidden />
        <span className="hidden lg:inline">Remove</span>
      </Button>

      <ConfirmDialog
        open={removing}
        onOpenChange={(open) => {
          setRemoving(open);
          if (!open) remove.reset();
        }}
        title={`Remove ${who}?`}
        description="They lose access to this account at once. Their API keys and generations stay with the account. You can invite them again later."
        confirmLabel="Remove member"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate({ accountId, userId: member.userId })}
      />
      <ConfirmDialog
        open={transferring}
        onOpenChange={(open) => {
          setTransferring(open);
          if (!open) transfer.reset();
        }}
        title={`Make ${who} the primary owner?`}
        description="They take over billing, subscriptions and alert settings, and become the only one who can transfer primary ownership. You stay on as an owner."
        confirmLabel="Transfer primary ownership"
        variant="primary"
        pending={transfer.isPending}
        error={transfer.error}
        onConfirm={() => transfer.mutate({ accountId, userId: member.userId })}
      />
    </div>
  );
}
