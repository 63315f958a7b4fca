import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// What the models router answers, as the components receive it.

type Outputs = inferRouterOutputs<AppRouter>["models"];

export type ModelCatalog = Outputs["list"];
export type ModelOverview = ModelCatalog["models"][number];
export type ModelDescription = Outputs["get"];
export type ModelProviderHealth = ModelOverview["providers"][number];
export type LibraryModelEntry = ModelOverview["entry"];
export type PricingBreakdown = LibraryModelEntry["model_pricing_breakdown"];
export type CreateField = ModelDescription["fields"][number];
export type ModelExample = NonNullable<ModelOverview["example"]>;
