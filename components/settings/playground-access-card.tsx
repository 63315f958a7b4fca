"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { QueryStates } from "@/components/dashboard/query-states";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { Card, CardBody, Checkbox, FormError, Skeleton, toast } from "@/components/ui";

// Who may run models from the dashboard (the playground and Compare): owners and members by
// default; the primary owner always may. Owners change it; the server enforces it on every run.

const labels: Record<string, { label: string; description: string }> = {
  owner: { label: "Owners", description: "Owners other than the primary owner." },
  member: { label: "Members", description: "Members can otherwise only read; runs are billed to the account." },
};

export function PlaygroundAccessCard({ accountId, canEdit }: { accountId: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const access = useQuery(trpc.playground.access.queryOptions({ accountId }));
  // The boxes follow the click at once; the server's answer (or its refusal) settles them.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const save = useMutation(
    trpc.playground.setRunRoles.mutationOptions({
      onSuccess: async () => {
        toast.success("Saved who may run models from the dashboard");
        await queryClient.invalidateQueries({ queryKey: trpc.playground.pathKey() });
        setChosen(null);
      },
      onError: () => setChosen(null),
    }),
  );
  return (
    <Card>
      <CardBody className="space-y-4">
        <QueryStates query={access} subject="The setting" loading={<Skeleton className="h-16" />}>
          {(data) => (
            <>
              <Checkbox label="The primary owner" description="Always." checked disabled />
              {data.choosable_roles.map((role) => (
                <Checkbox
                  key={role}
                  name={`run-${role}`}
                  label={labels[role]?.label ?? role}
                  description={labels[role]?.description}
                  checked={(chosen ?? data.roles).includes(role)}
                  disabled={!canEdit || save.isPending}
                  onChange={(event) => {
                    const others = (chosen ?? data.roles).filter((item) => item !== "primary_owner" && item !== role);
                    const roles = event.target.checked ? [...others, role] : others;
                    setChosen(roles);
                    save.mutate({ accountId, roles });
                  }}
                />
              ))}
              {data.playground_key && (
                <p className="text-xs text-zinc-500">
                  Runs are attributed to the{" "}
                  <Link
                    href={`/dashboard/${accountId}/keys/${data.playground_key.apikey_id}`}
                    className="font-medium text-zinc-700 underline-offset-2 hover:underline"
                  >
                    Dashboard playground key
                  </Link>{" "}
                  ({data.playground_key.apikey_prefix}, {data.playground_key.state}): give it a spend limit or revoke it there.
                </p>
              )}
            </>
          )}
        </QueryStates>
        <FormError>{save.isError ? errorMessage(save.error) : null}</FormError>
      </CardBody>
    </Card>
  );
}
