import { getAccountProfile } from "@/server/accounts/get-account-profile";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(async ({ accountId }) => ({ data: await getAccountProfile(accountId) }), { scope: "account:read", endpoint: "/v1/user/account" }),
});
