import "server-only";
import { z } from "zod";
import { billingCatalogView } from "../../../billing/billing-catalog-view";
import { ledgerFilters, listAccountOrders, listLedger, orderFilters } from "../../../billing/billing-lists";
import { getBillingSummary } from "../../../billing/get-billing-summary";
import { openBillingPortal } from "../../../billing/open-billing-portal";
import { billingIntervals, packSizes, paidPlans, type PackSize } from "../../../billing/price-catalog";
import { createPackOrder, openPackCheckout, preparePackCheckout } from "../../../billing/start-pack-checkout";
import { openSubscriptionCheckout, recordSubscriptionCheckout } from "../../../billing/start-subscription-checkout";
import { billingConfigured } from "../../../billing/stripe-client";
import { db } from "../../../base/db";
import { inTransaction } from "../../../base/transaction";
import { createTRPCRouter, memberProcedure, primaryOwnerProcedure } from "../trpc";
import { showAutoTopUp } from "../../../billing/auto-top-up/setting";
import { prepareAutoTopUp, saveAutoTopUp, turnOffAutoTopUp } from "../../../billing/auto-top-up/save-setting";
import { startCardSetup } from "../../../billing/auto-top-up/card-setup";

// Loose here, checked by the domain (parseAutoTopUp), so a bad value is ERR1001 naming its field.
const autoTopUpInput = z.object({
  threshold: z.union([z.string(), z.number()]),
  pack: z.union([z.string(), z.number()]),
  monthlyCap: z.union([z.string(), z.number()]),
});

// Billing: everyone in the account reads the plan, orders and ledger; only the primary owner
// starts Checkout (plans, packs) or opens the Customer Portal (spec §1). Members and owners get
// ERR1003 from the procedure whatever the page shows.

export const billingRouter = createTRPCRouter({
  overview: memberProcedure.query(async ({ ctx }) => {
    const accountId = ctx.membership.accountId;
    // Read in this order: what shows that a payment landed (the credited invoice, the order's
    // state) before the summary, so a page that sees "landed" also sees the balance it brought.
    const [subscription, account, latestOrder] = await Promise.all([
      db.subscription.findUnique({ where: { accountId }, select: { interval: true, stripeSubscriptionId: true, createdAt: true } }),
      db.account.findUniqueOrThrow({ where: { id: accountId }, select: { stripeCustomerId: true } }),
      db.order.findFirst({ where: { accountId }, orderBy: { createdAt: "desc" }, select: { id: true, status: true } }),
    ]);
    // Whether the Stripe subscription's first paid invoice has been credited yet (a returning
    // Checkout waits for it: the plan lands with subscription.created, the credits with invoice.paid).
    const planCredited = subscription?.stripeSubscriptionId
      ? (await db.ledgerEntry.count({
          where: { accountId, type: "add", sourceKey: { startsWith: "invoice:" }, createdAt: { gte: subscription.createdAt } },
        })) > 0
      : false;
    const summary = await getBillingSummary(db, ctx.scope);
    const canPurchase = ctx.membership.role === "primary_owner";
    return {
      configured: billingConfigured(),
      summary,
      interval: subscription?.interval ?? null,
      managedBy: subscription ? (subscription.stripeSubscriptionId ? ("stripe" as const) : ("contract" as const)) : null,
      hasStripeCustomer: account.stripeCustomerId !== null,
      planCredited,
      latestOrder,
      canPurchase,
      readOnlyReason: canPurchase
        ? null
        : "Only the primary owner of this account can buy plans and credit packs or manage billing; you can see everything here.",
    };
  }),

  catalog: memberProcedure.query(() => billingCatalogView()),

  orders: memberProcedure.input(orderFilters.partial()).query(({ ctx, input }) => listAccountOrders(db, ctx.scope, input)),

  ledger: memberProcedure.input(ledgerFilters.partial()).query(({ ctx, input }) => listLedger(db, ctx.scope, input)),

  startCheckout: primaryOwnerProcedure
    .input(z.object({ plan: z.enum(paidPlans), interval: z.enum(billingIntervals) }))
    .mutation(async ({ ctx, input }) => {
      const command = { userId: ctx.userId, plan: input.plan, interval: input.interval };
      const opened = await openSubscriptionCheckout(db, ctx.scope, command);
      await inTransaction((tx) => recordSubscriptionCheckout(tx, ctx.scope, { ...command, opened }));
      return { url: opened.url, sessionId: opened.sessionId };
    }),

  buyPack: primaryOwnerProcedure
    .input(
      z.object({
        credits: z.union(
          packSizes.map((size) => z.literal(size)) as [z.ZodLiteral<PackSize>, z.ZodLiteral<PackSize>, ...z.ZodLiteral<PackSize>[]],
        ),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const checkout = await preparePackCheckout(db, ctx.scope, { userId: ctx.userId, credits: input.credits });
      const order = await inTransaction((tx) => createPackOrder(tx, ctx.scope, checkout));
      return openPackCheckout(db, ctx.scope, { checkout, orderId: order.id });
    }),

  openPortal: primaryOwnerProcedure.mutation(({ ctx }) => openBillingPortal(db, ctx.scope)),

  autoTopUp: memberProcedure.query(({ ctx }) => showAutoTopUp(db, ctx.scope)),

  /** Saves the setting; without a saved card it answers the Checkout (setup mode) that saves one and turns it on. */
  setAutoTopUp: primaryOwnerProcedure.input(autoTopUpInput).mutation(async ({ ctx, input }) => {
    const prepared = await prepareAutoTopUp(db, ctx.scope, { actor: ctx.userId, request: input });
    const setting = await inTransaction((tx) => saveAutoTopUp(tx, ctx.scope, prepared));
    const cardSetup = setting.card ? null : await startCardSetup(db, ctx.scope, { userId: ctx.userId });
    return { setting, cardSetupUrl: cardSetup?.url ?? null };
  }),

  /** A Checkout in setup mode for a new card (replacing the saved one resumes a paused top-up). */
  saveCard: primaryOwnerProcedure.mutation(async ({ ctx }) => startCardSetup(db, ctx.scope, { userId: ctx.userId })),

  turnOffAutoTopUp: primaryOwnerProcedure.mutation(({ ctx }) => inTransaction((tx) => turnOffAutoTopUp(tx, ctx.scope, ctx.userId))),
});
