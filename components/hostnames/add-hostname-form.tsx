"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Field, Input, toast } from "@/components/ui";

// Owners attach the account's hostname; the server checks the name (lowercase FQDN, not ours, not
// another account's) and answers the reason, shown under the field.

export function AddHostnameForm({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [hostname, setHostname] = useState("");
  const set = useMutation(
    trpc.hostnames.set.mutationOptions({
      onSuccess: async (record) => {
        toast.success("Hostname added", {
          description: `Create the CNAME record for ${record.hostname}; it is checked now and then with backoff for 24 hours.`,
        });
        await queryClient.invalidateQueries({ queryKey: trpc.hostnames.pathKey() });
      },
    }),
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    set.mutate({ accountId, hostname });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
      <Field
        label="Hostname"
        hint="A name under your own domain, in lowercase, such as api.yourcompany.com."
        error={set.isError ? errorMessage(set.error) : undefined}
        className="min-w-0 flex-1"
      >
        <Input
          value={hostname}
          onChange={(event) => {
            setHostname(event.target.value);
            if (set.isError) set.reset();
          }}
          placeholder="api.yourcompany.com"
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="none"
        />
      </Field>
      <Button type="submit" loading={set.isPending} disabled={hostname.trim() === ""} className="sm:mt-6">
        Add hostname
      </Button>
    </form>
  );
}
