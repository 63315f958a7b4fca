import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// The shape the settings router answers with, as the settings components use it.

export type SettingsView = inferRouterOutputs<AppRouter>["settings"]["get"];
export type DeletionBlockerView = SettingsView["deletion"]["blockers"][number];
