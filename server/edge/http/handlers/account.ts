import "server-only";
import { accountScope } from "../../../base/account-scope";
import { getAccountProfile } from "../../../accounts/get-account-profile";
import { db } from "../../../base/db";
import { getBillingSummary } from "../../../billing/get-billing-summary";
import { keyStatus } from "../../../keys/key-status";
import { getUsage } from "../../../usage/get-usage";
import { requestingKeySpend } from "../../../spend/key-spend";
import { account } from "../operations";
import { withApiKey } from "../with-api-key";

// The /v1 handlers of the key and its account: status, profile, billing, usage.

export const getStatus = withApiKey(account.getStatus, async ({ key, accountId }) => {
  const spend = await requestingKeySpend(db, accountScope(accountId), key.id);
  return {
    ...keyStatus(key),
    apikey_spend_limit: spend.spend_limit,
    apikey_spend_period: spend.spend_period,
    apikey_spend_used: spend.spend_used,
    apikey_spend_resets_at: spend.spend_resets_at,
  };
});

export const getAccount = withApiKey(account.getAccount, async ({ accountId }) => getAccountProfile(db, accountScope(accountId)));

export const getBilling = withApiKey(account.getBilling, async ({ accountId }) => getBillingSummary(db, accountScope(accountId)));

export const getUsageSummary = withApiKey(account.getUsage, async ({ accountId, key, query }) =>
  getUsage(db, accountScope(accountId), { days: query.days, region: key.region }),
);
