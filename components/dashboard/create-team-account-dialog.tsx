"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Dialog, Field, Input, toast, DialogActions, FormError } from "@/components/ui";

// "Create a team account": a name, then a new account on the Free plan with the user as its
// primary owner, opened at once.

const formId = "create-team-account";

export function CreateTeamAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [formKey, setFormKey] = useState(0);
  const create = useMutation(
    trpc.team.createAccount.mutationOptions({
      onSuccess: (created, input) => {
        toast.success("Team account created", {
          description: `${input.name.trim()} is on the Free plan; invite your team from the Team page.`,
        });
        onOpenChange(false);
        router.push(`/dashboard/${created.account_id}/team`);
        router.refresh();
      },
    }),
  );

  function close() {
    onOpenChange(false);
    create.reset();
    setFormKey((key) => key + 1);
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.mutate({ name: String(new FormData(event.currentTarget).get("name") ?? "") });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Create a team account"
      description="A separate account with its own keys, credits and billing. It starts on the Free plan, with you as its primary owner."
      footer={<DialogActions onCancel={close} label="Create account" pending={create.isPending} form={formId} />}
    >
      <form id={formId} key={formKey} onSubmit={submit} className="space-y-4 pb-2">
        <Field label="Account name" required>
          <Input name="name" maxLength={100} placeholder="Acme Studio" required autoComplete="off" />
        </Field>
        <FormError>{create.isError && errorMessage(create.error)}</FormError>
      </form>
    </Dialog>
  );
}
