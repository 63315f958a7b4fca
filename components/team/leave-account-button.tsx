"use client";

import { useMutation } from "@tanstack/react-query";
import { LogOut } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/react";
import { Button } from "@/components/ui";
import { ConfirmDialog } from "./confirm-dialog";

// Leaving: any member or owner but the primary owner. Afterwards /dashboard opens another account.

export function LeaveAccountButton({ accountId, accountName }: { accountId: string; accountName: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const leave = useMutation(
    trpc.team.leave.mutationOptions({
      onSuccess: () => {
        router.push("/dashboard");
        router.refresh();
      },
    }),
  );
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        <LogOut aria-hidden />
        Leave account
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) leave.reset();
        }}
        title={`Leave ${accountName}?`}
        description="You lose access to this account at once. An owner can invite you again."
        confirmLabel="Leave account"
        pending={leave.isPending || leave.isSuccess}
        error={leave.error}
        onConfirm={() => leave.mutate({ accountId })}
      />
    </>
  );
}
