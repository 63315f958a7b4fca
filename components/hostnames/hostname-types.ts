import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// The shapes the hostnames router answers with, as the dashboard components use them.

export type HostnamesView = inferRouterOutputs<AppRouter>["hostnames"]["get"];
export type CustomHostnameRecord = NonNullable<HostnamesView["hostname"]>;
export type HostnameStatus = CustomHostnameRecord["status"];
