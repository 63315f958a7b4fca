"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Dialog, Field, Textarea, toast, DialogActions, FormError } from "@/components/ui";
import { MAX_BUG_DESCRIPTION_LENGTH, MAX_BUG_INTENT_LENGTH } from "@/server/bug-reports/bug-report-input";

// "Report a problem": what went wrong (required) and, optionally, what the person was trying to
// do. The page they are on is sent along; the server adds the browser from the request.

const formId = "report-problem";

export function ReportProblemDialog({
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
  const [length, setLength] = useState(0);
  const submit = useMutation(
    trpc.bugReports.submit.mutationOptions({
      onSuccess: async () => {
        toast.success("Thanks, your report was sent", { description: "It is in this account's activity feed; we read every report." });
        close();
        await queryClient.invalidateQueries({ queryKey: trpc.activity.pathKey() });
      },
    }),
  );

  function close() {
    onOpenChange(false);
    submit.reset();
    setLength(0);
    setFormKey((key) => key + 1);
  }

  function send(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    submit.mutate({
      accountId,
      description: String(form.get("description") ?? ""),
      intent: String(form.get("intent") ?? "") || undefined,
      pagePath: `${window.location.pathname}${window.location.search}`,
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      title="Report a problem"
      description="Tell us what went wrong. We add the page you are on and your browser to the report; nothing else."
      footer={<DialogActions onCancel={close} label="Send report" pending={submit.isPending} form={formId} />}
    >
      <form id={formId} key={formKey} onSubmit={send} className="space-y-4 pb-2">
        <Field label="What went wrong?" required hint={`${length} / ${MAX_BUG_DESCRIPTION_LENGTH} characters`}>
          <Textarea
            name="description"
            rows={5}
            maxLength={MAX_BUG_DESCRIPTION_LENGTH}
            placeholder="What happened, and what did you expect instead?"
            onChange={(event) => setLength(event.target.value.length)}
          />
        </Field>
        <Field label="What were you trying to do? (optional)">
          <Textarea name="intent" rows={2} maxLength={MAX_BUG_INTENT_LENGTH} placeholder="e.g. create an API key for our staging server" />
        </Field>
        <FormError>{submit.isError && errorMessage(submit.error)}</FormError>
      </form>
    </Dialog>
  );
}
