"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { toast } from "@/components/ui";
import { Select } from "@/components/ui/select";
import type { TeamMemberRow } from "./team-types";

// Owners switch another member between owner and member in place; the change is saved at once.

export function MemberRoleSelect({ accountId, member }: { accountId: string; member: TeamMemberRow }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const who = member.name ?? member.email;
  const change = useMutation(
    trpc.team.changeRole.mutationOptions({
      onSuccess: async (result) => {
        toast.success("Role changed", { description: `${who} is now ${result.role === "owner" ? "an owner" : "a member"}.` });
        await queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });
      },
      onError: (error) => toast.error("The role could not be changed", { description: errorMessage(error) }),
    }),
  );
  return (
    <Select
      aria-label={`Role of ${who}`}
      value={change.isPending && change.variables ? change.variables.role : member.role}
      disabled={change.isPending}
      onChange={(event) => change.mutate({ accountId, userId: member.userId, role: event.target.value === "owner" ? "owner" : "member" })}
      className="h-8 w-32 text-[13px]"
    >
      <option value="owner">Owner</option>
      <option value="member">Member</option>
    </Select>
  );
}
