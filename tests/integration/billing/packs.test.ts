import { afterAll, describe, expect, it } from "vitest";
import { createCaller } from "@/tests/support/dashboard-caller";
import { db, disconnectDb } from "@/server/base/db";
import { cli } from "@/tests/support/cli";
import { createTestAccount } from "@/tests/support/fixtures";
import { balanceOf } from "@/tests/support/generations";
import { eventually, fakeControl, payCheckout, stripeRequests, testStripe, subscribedAccount } from "@/tests/support/stripe";

// Credit packs: sold on top of an active subscription; paid while it is active → credited once,
// keyed by the Checkout session; paid after it lapsed → manual review, which an operator approves
// (credits once) or rejects (refund through Stripe). Refunds and disputes reported by Stripe.

afterAll(() => disconnectDb());

const as = (userId: string) => createCaller({ userId });

const subscribed = subscribedAccount;

async function lapsedWithPaidPack() {
  const account = await subscribed();
  const { url, orderId } = await as(account.userId).billing.buyPack({ accountId: account.accountId, credits: 25 });
  await testStripe().subscriptions.cancel(account.subscriptionId);
  await eventually(
    () => db.subscription.findUniqueOrThrow({ where: { accountId: account.accountId } }),
    (row) => row.status === "canceled",
  );
  expect((await payCheckout(url)).status).toBe(303);
  const order = await eventually(
    () => db.order.findUniqueOrThrow({ where: { id: orderId } }),
    (row) => row.status === "manual_review",
  );
  return { ...account, order };
}

describe("a credit pack", () => {
  it("bought while the subscription is active adds its credits once and fulfils the order", async () => {
    const { accountId, userId, balance } = await subscribed();
    const { url, sessionId, orderId } = await as(userId).billing.buyPack({ accountId, credits: 50 });
    const [sent] = (await stripeRequests({ path: "/v1/checkout/sessions", method: "POST" })).filter(
      (request) => request.params.metadata?.order_id === orderId,
    );
    expect(sent!.params).toMatchObject({
      mode: "payment",
      client_reference_id: accountId,
      payment_intent_data: { metadata: { order_id: orderId, account_id: accountId } },
    });
    expect(sent!.idempotencyKey).toBe(`darkroom-order-${orderId}`);
    expect((await testStripe().prices.retrieve(sent!.params.line_items[0].price)).lookup_key).toBe("darkroom_pack_50");

    expect((await payCheckout(url)).status).toBe(303);
    const order = await eventually(
      () => db.order.findUniqueOrThrow({ where: { id: orderId } }),
      (row) => row.status === "fulfilled",
    );
    expect(order).toMatchObject({ credits: expect.anything(), amountCents: 5000, currency: "usd", stripeCheckoutSessionId: sessionId });
    expect(await balanceOf(accountId)).toBe(balance + 50);
    expect(await db.ledgerEntry.count({ where: { accountId, sourceKey: `checkout:${sessionId}` } })).toBe(1);
    expect(await db.activityEvent.count({ where: { accountId, action: "order.fulfilled" } })).toBe(1);
  });

  it("is refused without an active subscription (ERR1001), and no order is left behind", async () => {
    const { accountId, userId } = await createTestAccount({ plan: "free" });
    await expect(as(userId).billing.buyPack({ accountId, credits: 10 })).rejects.toMatchObject({
      message: expect.stringMatching(/active subscription/),
    });
    expect(await db.order.count({ where: { accountId } })).toBe(0);
  });

  it("paid after the subscription lapsed waits for review; order:approve adds the credits once", async () => {
    const { accountId, userId, email, order } = await lapsedWithPaidPack();
    const before = await balanceOf(accountId);
    expect(order.reviewReason).toMatch(/subscription was canceled/);
    const notification = await db.notification.findFirstOrThrow({ where: { accountId, kind: "order.manual_review" } });
    expect(notification.userId).toBe(userId);
    expect(await db.emailOutbox.count({ where: { to: email, kind: "order.manual_review" } })).toBe(1);
    expect(await db.activityEvent.count({ where: { accountId, action: "order.manual_review" } })).toBe(1);

    const listed = await cli(["order:list", "--status", "manual_review", "--account", accountId]);
    expect(listed.code).toBe(0);
    expect(listed.body.orders.map((entry: { order_id: string }) => entry.order_id)).toEqual([order.id]);

    const approved = await cli(["order:approve", "--order", order.id]);
    expect(approved.code).toBe(0);
    expect(approved.body).toMatchObject({ order_id: order.id, status: "fulfilled", credits: "25" });
    const again = await cli(["order:approve", "--order", order.id]);
    expect(again.body).toMatchObject({ order_id: order.id, status: "fulfilled" });
    expect(await balanceOf(accountId)).toBe(before + 25);
    expect(await db.ledgerEntry.count({ where: { accountId, sourceKey: `checkout:${order.stripeCheckoutSessionId}` } })).toBe(1);
  });

  it("paid after the subscription lapsed and rejected: the payment is refunded through Stripe, no credits", async () => {
    const { accountId, order } = await lapsedWithPaidPack();
    const before = await balanceOf(accountId);
    const rejected = await cli(["order:reject", "--order", order.id]);
    expect(rejected.code).toBe(0);
    expect(rejected.body).toMatchObject({ order_id: order.id, status: "rejected", refund_id: expect.stringMatching(/^re_/) });
    const refunds = (await stripeRequests({ path: "/v1/refunds", method: "POST" })).filter(
      (request) => request.params.payment_intent === order.stripePaymentIntentId,
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.idempotencyKey).toBe(`darkroom-order-reject-${order.id}`);
    // Stripe's charge.refunded for our own refund leaves the order rejected.
    await eventually(
      () => db.order.findUniqueOrThrow({ where: { id: order.id } }),
      (row) => row.refundedAt !== null,
    );
    expect((await db.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe("rejected");
    expect(await balanceOf(accountId)).toBe(before);
    const approve = await cli(["order:approve", "--order", order.id]);
    expect(approve.code).toBe(2);
    expect(approve.body.error.code).toBe("ERR1001");
  });

  it("refunded or disputed in Stripe after fulfilment: the order records it, the owner is told, the credits stay", async () => {
    const { accountId, userId } = await subscribed();
    const { url, orderId } = await as(userId).billing.buyPack({ accountId, credits: 10 });
    await payCheckout(url);
    const fulfilled = await eventually(
      () => db.order.findUniqueOrThrow({ where: { id: orderId } }),
      (row) => row.status === "fulfilled",
    );
    const balance = await balanceOf(accountId);
    const intent = await testStripe().paymentIntents.retrieve(fulfilled.stripePaymentIntentId!);
    await fakeControl(`charges/${intent.latest_charge as string}/dispute`);
    await eventually(
      () => db.order.findUniqueOrThrow({ where: { id: orderId } }),
      (row) => row.status === "disputed",
    );
    await testStripe().refunds.create({ payment_intent: intent.id });
    await eventually(
      () => db.order.findUniqueOrThrow({ where: { id: orderId } }),
      (row) => row.status === "refunded",
    );
    expect(await balanceOf(accountId)).toBe(balance);
    const kinds = (await db.notification.findMany({ where: { accountId, userId } })).map((row) => row.kind).sort();
    expect(kinds).toEqual(expect.arrayContaining(["billing.dispute_created", "order.refunded"]));
    const actions = (await db.activityEvent.findMany({ where: { accountId, category: "order" } })).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["order.created", "order.fulfilled", "order.disputed", "order.refunded"]));
  });
});
