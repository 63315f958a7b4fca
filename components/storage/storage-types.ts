import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// The shapes the storage router answers with, as the Storage page uses them.

type StorageOutputs = inferRouterOutputs<AppRouter>["storage"];

export type DestinationView = NonNullable<StorageOutputs["destination"]>;
export type DestinationTestResult = StorageOutputs["testDestination"];
