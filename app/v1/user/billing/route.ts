import { getBillingSummary } from "@/server/billing/get-billing-summary";
import { account } from "@/server/http/operations";
import { v1Route } from "@/server/http/v1-route";
import { withApiKey } from "@/server/http/with-api-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = v1Route(withApiKey(account.getBilling, async ({ accountId }) => getBillingSummary(accountId)));
