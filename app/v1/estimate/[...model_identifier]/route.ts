import { estimateForAccount } from "@/server/catalog/estimate-for-account";
import { db } from "@/server/db";
import { catalog } from "@/server/http/operations";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(
  withApiKey(catalog.getEstimate, async ({ accountId, params, query }) => estimateForAccount(db, accountId, params.model_identifier ?? "", query)),
);
