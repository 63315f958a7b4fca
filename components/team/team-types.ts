import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// The shapes the team router answers with, as the team components use them.

type Outputs = inferRouterOutputs<AppRouter>;

export type TeamView = Outputs["team"]["list"];
export type TeamMemberRow = TeamView["members"][number];
export type TeamInvitationRow = TeamView["invitations"][number];
export type InvitationView = NonNullable<Outputs["team"]["invitation"]>;
