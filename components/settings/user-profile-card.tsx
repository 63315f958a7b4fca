"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiErrorFields, asSentence } from "@/components/trpc/api-error";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Button, Card, CardBody, CardFooter, Field, Input, toast, FormError } from "@/components/ui";
import type { SettingsView } from "./settings-types";

// The signed-in user's own name (teammates see it on the Team page). It belongs to the person,
// not the account: the same in every account they are in.

const MAX_NAME = 100;

export function UserProfileCard({ accountId, viewer }: { accountId: string; viewer: SettingsView["viewer"] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState(viewer.name ?? "");
  const save = useMutation(
    trpc.settings.updateProfile.mutationOptions({
      onSuccess: async (result) => {
        setName(result.name ?? "");
        toast.success(result.name ? "Your name is saved" : "Your name is cleared");
        await queryClient.invalidateQueries({ queryKey: trpc.settings.get.queryKey({ accountId }) });
        await queryClient.invalidateQueries({ queryKey: trpc.team.pathKey(), refetchType: "none" });
      },
    }),
  );
  const nameError = apiErrorFields(save.error).name;

  return (
    <Card>
      <form
        aria-label="Your profile"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ name });
        }}
      >
        <CardBody className="space-y-5">
          <Field
            label="Your name"
            error={nameError ? asSentence(`Your name ${nameError}`) : undefined}
            hint="Shown to your teammates in every account you belong to."
          >
            <Input
              value={name}
              onChange={(event) => setName(event.target.value)}
              placeholder="e.g. Ada Lovelace"
              maxLength={MAX_NAME + 20}
              autoComplete="name"
            />
          </Field>
          <Field label="E-mail" hint="You sign in with this address. It cannot be changed here.">
            <Input value={viewer.email} readOnly className="bg-zinc-50 text-zinc-600" />
          </Field>
          <FormError>{save.isError && !nameError && errorMessage(save.error)}</FormError>
        </CardBody>
        <CardFooter>
          <Button type="submit" size="sm" loading={save.isPending} disabled={name === (viewer.name ?? "")}>
            Save name
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
