import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route({
  GET: withApiKey(
    async ({ key }) => ({
      data: {
        account_id: key.account.id,
        apikey_id: key.id,
        apikey_name: key.name,
        apikey_prefix: key.prefix,
        apikey_created_at: key.createdAt.toISOString(),
        // This request is a use of the key; the request log records the same moment.
        apikey_last_used_at: new Date().toISOString(),
        apikey_expires_at: key.expiresAt?.toISOString() ?? null,
      },
    }),
    { scope: "account:read", endpoint: "/v1/status" },
  ),
});
