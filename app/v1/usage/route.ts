import { integerParam } from "@/server/http/query-params";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { getUsage } from "@/server/usage/get-usage";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(
    async ({ accountId, query }) => ({ data: await getUsage(accountId, integerParam(query, "days", { default: 30, min: 1, max: 90 })) }),
    { scope: "account:read", endpoint: "/v1/usage" },
  ),
});
