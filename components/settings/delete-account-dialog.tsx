"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { toast, TypedConfirmDialog } from "@/components/ui";
import type { SettingsView } from "./settings-types";

// The last step: the account's name typed exactly, then the deletion; the user lands on another
// account of theirs (or /dashboard picks one).

export function DeleteAccountDialog({
  account,
  open,
  onOpenChange,
}: {
  account: SettingsView["account"];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const remove = useMutation(
    trpc.settings.deleteAccount.mutationOptions({
      onSuccess: (result) => {
        toast.success(`${account.name} was deleted`, { description: "Its keys no longer work and its members no longer have access." });
        router.replace(result.nextAccountId ? `/dashboard/${result.nextAccountId}` : "/dashboard");
        router.refresh();
      },
    }),
  );
  const hasBalance = Number(account.creditBalance) > 0;

  return (
    <TypedConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Delete ${account.name}?`}
      description="This cannot be undone. API keys are revoked, webhooks disabled, open invitations withdrawn, and every member loses access at once."
      expected={account.name}
      matches={(typed, expected) => typed.trim() === expected}
      label={
        <>
          Type <span className="font-mono font-semibold text-zinc-900">{account.name}</span> to confirm
        </>
      }
      confirmLabel="Delete account"
      // Still busy after success: the page is on its way to another account.
      pending={remove.isPending || remove.isSuccess}
      error={remove.isError ? errorMessage(remove.error) : null}
      onConfirm={(typed) => remove.mutate({ accountId: account.accountId, confirmName: typed })}
      onCancel={() => remove.reset()}
    >
      {hasBalance ? (
        <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          The remaining balance of {account.creditBalance} credits is forfeited: credits are not refunded or moved to another account.
        </p>
      ) : null}
    </TypedConfirmDialog>
  );
}
