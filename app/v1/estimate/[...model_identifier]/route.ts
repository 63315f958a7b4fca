import { estimateForAccount } from "@/server/catalog/estimate-for-account";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(
    async ({ accountId, params, query }) => ({ data: await estimateForAccount(accountId, params.model_identifier ?? "", query) }),
    { scope: "library:read", endpoint: "/v1/estimate/{model_identifier}" },
  ),
});
