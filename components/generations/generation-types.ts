import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// What the generations router answers, as the components receive it.

type Outputs = inferRouterOutputs<AppRouter>["generations"];

export type GenerationRow = Outputs["list"]["generations"][number];
export type GenerationDetailData = Outputs["get"];
export type ProviderAttemptRow = GenerationDetailData["attempts"][number];
export type LedgerRow = GenerationDetailData["ledger"][number];
