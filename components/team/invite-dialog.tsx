"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Dialog, Field, Input, toast, DialogActions, FormError } from "@/components/ui";
import { Select } from "@/components/ui/select";

// "Invite member": an address and a role; the invitation e-mail carries a link valid for 7 days.

const formId = "invite-member";

export function InviteDialog({
  accountId,
  open,
  onOpenChange,
}: {
  accountId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [formKey, setFormKey] = useState(0);
  const invite = useMutation(
    trpc.team.invite.mutationOptions({
      onSuccess: async (invited) => {
        close();
        toast.success("Invitation sent", { description: `${invited.email} can join as ${invited.role} within 7 days.` });
        await queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });
      },
    }),
  );

  function close() {
    onOpenChange(false);
    invite.reset();
    setFormKey((key) => key + 1);
  }

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    invite.mutate({ accountId, email: String(form.get("email") ?? ""), role: form.get("role") === "owner" ? "owner" : "member" });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Invite member"
      description="We e-mail them a link to join this account. It works for 7 days."
      footer={<DialogActions onCancel={close} label="Send invitation" pending={invite.isPending} form={formId} />}
    >
      <form id={formId} key={formKey} onSubmit={submit} className="space-y-4 pb-2">
        <Field label="E-mail" required>
          <Input name="email" type="email" autoComplete="off" placeholder="colleague@company.com" required />
        </Field>
        <Field
          label="Role"
          hint="Owners manage keys, webhooks and the team; members can view everything. Only the primary owner handles billing."
        >
          <Select name="role" defaultValue="member">
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </Select>
        </Field>
        <FormError>{invite.isError && errorMessage(invite.error)}</FormError>
      </form>
    </Dialog>
  );
}
