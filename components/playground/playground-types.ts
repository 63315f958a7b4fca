import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// What the playground router answers, as the components receive it.

type Outputs = inferRouterOutputs<AppRouter>["playground"];

export type PlaygroundAccess = Outputs["access"];
export type RunEstimate = Outputs["estimate"];
export type RunView = Outputs["get"];
export type RunSummary = Outputs["history"][number];
export type ComparisonView = Outputs["comparison"];
