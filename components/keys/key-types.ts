import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";
import type { RegionName } from "@/server/base/env";

// The shapes the keys and request logs routers answer with, as the dashboard components use them.

type Outputs = inferRouterOutputs<AppRouter>;

export type ApiKeyRecord = Outputs["keys"]["list"][number];
export type KeyState = ApiKeyRecord["state"];
export type CreatedApiKey = Outputs["keys"]["create"];
export type KeySpend = Outputs["spend"]["key"];
/** Each region's base address (REGION_HOSTS), for the curl example of a key of that region. */
export type ApiBaseUrls = Record<RegionName, string>;
export type RequestLogEntry = Outputs["requestLogs"]["list"]["data"][number];
