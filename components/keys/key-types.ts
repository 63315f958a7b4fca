import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

// The shapes the keys and request logs routers answer with, as the dashboard components use them.

type Outputs = inferRouterOutputs<AppRouter>;

export type ApiKeyRecord = Outputs["keys"]["list"][number];
export type KeyState = ApiKeyRecord["state"];
export type CreatedApiKey = Outputs["keys"]["create"];
export type RequestLogEntry = Outputs["requestLogs"]["list"]["data"][number];
