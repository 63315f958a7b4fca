import { account } from "@/server/http/operations";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { getUsage } from "@/server/usage/get-usage";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(withApiKey(account.getUsage, async ({ accountId, key, query }) => getUsage(accountId, query.days, { region: key.region })));
