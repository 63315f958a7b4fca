import { accountScope, OPERATOR } from "../../../base/account-scope";
import { setManualPlan } from "../../../billing/manual-plans";
import { approveOrder, listOrders, refundRejectedOrder, rejectOrder } from "../../../billing/orders/review-order";
import { billingIntervals, paidPlans, type BillingIntervalName, type PaidPlan } from "../../../billing/price-catalog";
import { parseAmountOverrides, setupStripeCatalog } from "../../../billing/setup-stripe-catalog";
import { stripeClient } from "../../../billing/stripe-client";
import { invalidRequest } from "../../../base/error-table";
import { inTransaction } from "../../../base/transaction";
import { OrderStatus } from "../../../base/generated/prisma/enums";
import { oneOf, uuidFlag, type Command, type Flags } from "./command";

// Billing from the CLI: the Stripe catalog (`stripe:setup`), the review of credit-pack orders
// paid while the subscription was not active, and contract plans renewed without Stripe.
// Commands that call Stripe run outside the CLI's transaction (no row stays locked across a
// network call) and open their own around the domain's writes.

const orderStatuses = Object.values(OrderStatus);

function isoFlag(flags: Flags, name: string): Date | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) || Number.isNaN(date.getTime())) {
    throw invalidRequest(`--${name} must be an ISO 8601 date-time.`, [{ field: name, message: "must be an ISO 8601 date-time" }]);
  }
  return date;
}

export const billingCommands: Record<string, Command> = {
  "stripe:setup": {
    usage:
      "stripe:setup [--amounts darkroom_pro_month=25,darkroom_pack_10=12] (creates missing products and prices; amounts in USD, default = the credits)",
    required: [],
    optional: ["amounts"],
    transaction: false,
    prepare(flags) {
      const overrides = parseAmountOverrides(flags.amounts);
      return async () => ({ ...(await setupStripeCatalog(stripeClient(), overrides)) });
    },
  },
  "order:list": {
    usage: `order:list [--status ${orderStatuses.join("|")}] [--account A]`,
    required: [],
    optional: ["status", "account"],
    transaction: false,
    prepare(flags) {
      const status = oneOf(flags, "status", orderStatuses);
      const accountId = flags.account === undefined ? undefined : uuidFlag(flags, "account");
      return async (db) => ({ orders: await listOrders(db, accountId === undefined ? OPERATOR : accountScope(accountId), { status }) });
    },
  },
  "order:approve": {
    usage: "order:approve --order O (a manual_review order: adds its credits once)",
    required: ["order"],
    optional: [],
    prepare(flags) {
      const orderId = flags.order ?? "";
      return async (tx) => approveOrder(tx, orderId);
    },
  },
  "order:reject": {
    usage: "order:reject --order O (a manual_review order: refunds the payment through Stripe)",
    required: ["order"],
    optional: [],
    transaction: false,
    prepare(flags) {
      const orderId = flags.order ?? "";
      // The rejection commits before Stripe is called: no order stays locked across the refund.
      return async (db) => refundRejectedOrder(db, await inTransaction((tx) => rejectOrder(tx, orderId)));
    },
  },
};

/** `account:plan --interval month|year [--period-start ISO]`: a contract plan renewed by the cron. */
export function prepareContractPlan(flags: Flags, accountId: string, plan: string) {
  const interval = oneOf(flags, "interval", billingIntervals) as BillingIntervalName;
  if (!(paidPlans as readonly string[]).includes(plan))
    throw invalidRequest("--interval needs a paid plan (starter, pro, scale or enterprise).", [
      { field: "plan", message: "must be a paid plan" },
    ]);
  const periodStart = isoFlag(flags, "period-start") ?? new Date();
  return { accountId, plan: plan as PaidPlan, interval, periodStart, run: setManualPlan };
}
