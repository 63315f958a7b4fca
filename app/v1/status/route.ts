import { account } from "@/server/http/operations";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";
import { keyStatus } from "@/server/keys/key-status";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(withApiKey(account.getStatus, async ({ key }) => keyStatus(key)));
