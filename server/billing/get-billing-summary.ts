import "server-only";
import type { OneAccount } from "../base/account-scope";
import type { Db } from "../base/db";
import { ApiError } from "../base/error-table";
import { formatCredits } from "../base/money";
import { getBalance } from "../ledger/get-balance";
import { showAutoTopUp } from "./auto-top-up/setting";

/**
 * GET /v1/user/billing. Without a Stripe subscription the status is "none" on Free and "manual" on
 * a plan an operator assigned (a contract plan carries its period; a bare plan change has none).
 */
export async function getBillingSummary(db: Db, scope: OneAccount) {
  const { accountId } = scope;
  const account = await db.account.findUnique({ where: { id: accountId }, include: { subscription: true } });
  if (!account) throw new ApiError("ERR1006", "The account was not found.");
  const subscription = account.subscription;
  return {
    account_id: account.id,
    billing_plan: account.plan,
    billing_credit_balance: formatCredits(await getBalance(db, accountId)),
    billing_subscription_status: subscription?.stripeSubscriptionId
      ? subscription.status
      : subscription || account.plan !== "free"
        ? ("manual" as const)
        : ("none" as const),
    billing_cancel_at_period_end: subscription?.cancelAtPeriodEnd ?? false,
    billing_currency: subscription?.currency ?? "usd",
    billing_period_starts_at: subscription?.currentPeriodStart.toISOString() ?? null,
    billing_period_ends_at: subscription?.currentPeriodEnd.toISOString() ?? null,
    billing_created_at: (subscription?.createdAt ?? account.createdAt).toISOString(),
    billing_updated_at: (subscription?.updatedAt ?? account.updatedAt).toISOString(),
    billing_auto_top_up: await showAutoTopUp(db, scope),
  };
}
