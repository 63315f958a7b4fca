import "server-only";
import type { Db } from "../base/db";
import { LIVE_STATUSES } from "../plans/subscription-status";

// Why a team account cannot be deleted right now, in words the Settings page shows before anyone
// types the name, and the same check the deletion runs under the account's lock. Personal
// accounts are never deleted: they are where a user's own balance and history live.

export type DeletionBlocker = {
  reason: "personal_account" | "live_subscription" | "generations_in_flight" | "open_orders";
  message: string;
};

export async function accountDeletionBlockers(db: Db, account: { id: string; isPersonal: boolean }): Promise<DeletionBlocker[]> {
  if (account.isPersonal) {
    return [
      {
        reason: "personal_account",
        message:
          "Personal accounts cannot be deleted: they hold your own balance, usage and billing history, and every login keeps one. Team accounts you own can be deleted.",
      },
    ];
  }
  const blockers: DeletionBlocker[] = [];
  const [subscription, inFlight, openOrders] = await Promise.all([
    db.subscription.findUnique({ where: { accountId: account.id }, select: { plan: true, status: true, stripeSubscriptionId: true } }),
    db.generation.count({ where: { accountId: account.id, status: { in: ["pending", "processing"] } } }),
    db.order.count({ where: { accountId: account.id, status: { in: ["pending", "manual_review"] } } }),
  ]);
  if (subscription && LIVE_STATUSES.includes(subscription.status)) {
    blockers.push({
      reason: "live_subscription",
      message: subscription.stripeSubscriptionId
        ? `The ${subscription.plan} subscription is still ${subscription.status.replace("_", " ")}. Cancel it in Manage billing first; the account can be deleted once the subscription has ended.`
        : `The ${subscription.plan} contract plan is still ${subscription.status.replace("_", " ")}. Ask your Darkroom contact to end it first.`,
    });
  }
  if (inFlight > 0) {
    blockers.push({
      reason: "generations_in_flight",
      message: `${inFlight} ${inFlight === 1 ? "generation is" : "generations are"} still running. Wait for ${inFlight === 1 ? "it" : "them"} to finish or cancel ${inFlight === 1 ? "it" : "them"} first.`,
    });
  }
  if (openOrders > 0) {
    blockers.push({
      reason: "open_orders",
      message: `${openOrders} credit-pack ${openOrders === 1 ? "order is" : "orders are"} still open (checkout in progress or under review). Delete the account once ${openOrders === 1 ? "it is" : "they are"} settled.`,
    });
  }
  return blockers;
}
