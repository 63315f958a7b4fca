import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";
import { reserveCredits } from "@/server/credits/reserve-credits";
import { sweepTopUps } from "@/server/billing/auto-top-up/sweep-top-ups";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { createCaller } from "@/tests/support/dashboard-caller";
import { cli } from "@/tests/support/cli";
import { addTeamMember, createTestAccount, createTestKey } from "@/tests/support/fixtures";
import { balanceOf, createImage } from "@/tests/support/generations";
import { api, expectSuccess } from "@/tests/support/http";
import { apiErrorOf } from "@/tests/support/trpc-api-error";
import {
  eventually,
  payCheckout,
  postStripeWebhook,
  stripeEnv,
  stripeEvent,
  stripeRequests,
  testStripe,
  subscribedAccount,
} from "@/tests/support/stripe";

// Auto top-up against the Stripe fake, end to end: the card saved through Checkout in setup mode,
// a ledger movement below the threshold starting one order, the server's auto-top-up function
// charging off-session, Stripe's payment_intent.succeeded adding the credits once; declines,
// the bank's request for the cardholder, the monthly cap, a lapsed subscription, the sweep.

afterAll(() => disconnectDb());

const as = (userId: string) => createCaller({ userId });
const TX = { maxWait: 120_000, timeout: 60_000 };

const subscribed = subscribedAccount;

/** A subscribed account with auto top-up set below `threshold` and a card saved through the fake's Checkout. */
async function withAutoTopUp(options: { threshold?: number; pack?: number; cap?: number; card?: string } = {}) {
  const account = await subscribed();
  const threshold = options.threshold ?? account.balance;
  const { setting, cardSetupUrl } = await as(account.userId).billing.setAutoTopUp({
    accountId: account.accountId,
    threshold,
    pack: options.pack ?? 25,
    monthlyCap: options.cap ?? 100,
  });
  expect(setting).toMatchObject({ enabled: false, card: null, threshold, pack: options.pack ?? 25 });
  expect(cardSetupUrl).toMatch(/^http/);
  const saved = await fetch(cardSetupUrl!, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ email: account.email, card: options.card ?? "4242424242424242" }),
  });
  expect(saved.status).toBe(303);
  const row = await eventually(
    () => db.autoTopUp.findUnique({ where: { accountId: account.accountId } }),
    (value) => value?.enabled === true && value.paymentMethodId !== null,
  );
  return { ...account, threshold, paymentMethodId: row!.paymentMethodId! };
}

let generationSeq = 0;
/** A create's reservation, as the transaction path writes it (a generation row, then its reserve). */
async function reserve(accountId: string, amountMillis: number) {
  const generation = await db.generation.create({
    data: { accountId, region: "us", mediaKind: "image", status: "failed", modelIdentifier: "test/model", estimatedCost: "0.001" },
    select: { id: true },
  });
  generationSeq++;
  return inTransaction(
    (tx) =>
      reserveCredits(tx, {
        accountId,
        generationId: generation.id,
        amountMillis,
        modelIdentifier: "test/model",
        description: `burst ${generationSeq}`,
      }),
    TX,
  );
}

const topUpsOf = (accountId: string) => db.order.findMany({ where: { accountId, kind: "auto_top_up" }, orderBy: { createdAt: "asc" } });

async function settledTopUps(accountId: string, count: number, done: string[] = ["fulfilled", "failed", "canceled", "requires_action"]) {
  return eventually(
    () => topUpsOf(accountId),
    (orders) => orders.length === count && orders.every((order) => done.includes(order.status)),
    60_000,
  );
}

/** The cooldown after the last attempt, passed (the attempt moved back 11 minutes). */
const afterCooldown = (accountId: string) =>
  db.autoTopUp.update({ where: { accountId }, data: { lastAttemptAt: new Date(Date.now() - 11 * 60_000) } });

async function cardOutcome(paymentMethodId: string, outcome: string) {
  const response = await fetch(`${stripeEnv().base}/_fake/payment_methods/${paymentMethodId}/outcome`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ outcome }),
  });
  expect(response.status).toBe(200);
}

const paymentIntentsFor = async (orderId: string) =>
  (await stripeRequests({ path: "/v1/payment_intents", method: "POST" })).filter(
    (request) => request.params.metadata?.order_id === orderId,
  );

describe("auto top-up: the setting", () => {
  it("is saved by the primary owner, turned on by the card saved through Checkout (setup mode), and shown by GET /v1/user/billing", async () => {
    const account = await withAutoTopUp({ threshold: 5, pack: 25, cap: 60 });
    const [setup] = (await stripeRequests({ path: "/v1/checkout/sessions", method: "POST" })).filter(
      (request) => request.params.mode === "setup" && request.params.metadata?.account_id === account.accountId,
    );
    expect(setup!.params).toMatchObject({ mode: "setup", setup_intent_data: { metadata: { purpose: "auto_top_up_card" } } });
    const view = await as(account.userId).billing.autoTopUp({ accountId: account.accountId });
    expect(view).toMatchObject({
      enabled: true,
      threshold: 5,
      pack: 25,
      monthly_cap: 60,
      pack_price: 25,
      spent_this_month: 0,
      paused: false,
      card: { brand: "visa", last4: "4242", exp_month: expect.any(Number), exp_year: expect.any(Number) },
    });
    const { key } = await createTestKey(account.accountId, { preset: "read" });
    const billing = expectSuccess(await api<Record<string, any>>("/v1/user/billing", { key }));
    expect(billing.billing_auto_top_up).toEqual(view);
    expect(billing.billing_plan).toBe("starter");
    expect(await db.activityEvent.count({ where: { accountId: account.accountId, action: "auto_top_up.card_saved" } })).toBe(1);

    await as(account.userId).billing.turnOffAutoTopUp({ accountId: account.accountId });
    expect((await as(account.userId).billing.autoTopUp({ accountId: account.accountId })).enabled).toBe(false);
  });

  it("refuses bad values with ERR1001 naming the field, a member with ERR1003, and an account without a subscription", async () => {
    const account = await subscribed();
    const call = (input: Record<string, unknown>) =>
      apiErrorOf(
        as(account.userId).billing.setAutoTopUp({
          accountId: account.accountId,
          threshold: 5,
          pack: 25,
          monthlyCap: 100,
          ...input,
        } as never),
      );
    for (const [input, field] of [
      [{ pack: 7 }, "pack"],
      [{ threshold: 0 }, "threshold"],
      [{ threshold: "1.0001" }, "threshold"],
      [{ monthlyCap: "-3" }, "monthly_cap"],
      [{ monthlyCap: 10 }, "monthly_cap"],
    ] as const) {
      const body = await call(input);
      expect(body.code, JSON.stringify(input)).toBe("ERR1001");
      expect(body.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    const member = await addTeamMember(account.accountId, "member");
    expect(
      (await apiErrorOf(as(member).billing.setAutoTopUp({ accountId: account.accountId, threshold: 5, pack: 25, monthlyCap: 100 }))).code,
    ).toBe("ERR1003");
    expect((await as(member).billing.autoTopUp({ accountId: account.accountId })).enabled).toBe(false);

    const free = await createTestAccount({ plan: "free" });
    const refused = await apiErrorOf(
      as(free.userId).billing.setAutoTopUp({ accountId: free.accountId, threshold: 5, pack: 25, monthlyCap: 100 }),
    );
    expect(refused).toMatchObject({ code: "ERR1001", message: expect.stringMatching(/active subscription/) });
    expect(await db.autoTopUp.count({ where: { accountId: free.accountId } })).toBe(0);
  });
});

describe("auto top-up: the CLI", () => {
  it("sets, shows and turns it off, printing the card's Checkout when none is saved; bad flags are ERR1001 naming the flag", async () => {
    const account = await subscribed();
    for (const [flags, field] of [
      [["--below", "0", "--pack", "25", "--monthly-cap", "100"], "below"],
      [["--below", "5", "--pack", "7", "--monthly-cap", "100"], "pack"],
      [["--below", "5", "--pack", "25", "--monthly-cap", "lots"], "monthly-cap"],
    ] as const) {
      const refused = await cli(["auto-top-up:set", "--account", account.accountId, ...flags]);
      expect(refused.code).toBe(2);
      expect(refused.body.error).toMatchObject({ code: "ERR1001", details: { fields: [expect.objectContaining({ field })] } });
    }
    const missing = await cli(["auto-top-up:show", "--account", "00000000-0000-4000-8000-00000000beef"]);
    expect(missing.code).toBe(2);
    expect(missing.body.error.code).toBe("ERR1006");

    const set = await cli(["auto-top-up:set", "--account", account.accountId, "--below", "4.5", "--pack", "50", "--monthly-cap", "120"]);
    expect(set.code, JSON.stringify(set.body)).toBe(0);
    expect(set.body).toMatchObject({ auto_top_up: { enabled: false, threshold: 4.5, pack: 50, monthly_cap: 120, card: null } });
    expect(set.body.card_setup_url).toMatch(/\/c\/pay\/cs_test_/);
    const shown = await cli(["auto-top-up:show", "--account", account.accountId]);
    expect(shown.body.auto_top_up).toEqual(set.body.auto_top_up);
    const off = await cli(["auto-top-up:off", "--account", account.accountId]);
    expect(off.body.auto_top_up.enabled).toBe(false);
    expect(await db.activityEvent.count({ where: { accountId: account.accountId, action: "auto_top_up.updated", actor: "system" } })).toBe(
      1,
    );
  });
});

describe("auto top-up: the charge", () => {
  it("a create through the API that leaves the balance below the threshold buys the pack once, credited by payment_intent.succeeded", async () => {
    const account = await withAutoTopUp({ pack: 25 });
    const { key } = await createTestKey(account.accountId);
    await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId: account.accountId,
        url: "http://127.0.0.1:9/hooks",
        events: ["credits.auto_top_up_succeeded", "credits.auto_top_up_failed"],
        actor: "system",
      }),
    );
    expectSuccess(await createImage(key, { generation_prompt: "a lighthouse at dusk" }), 202);
    const [order] = await settledTopUps(account.accountId, 1);
    expect(order).toMatchObject({
      status: "fulfilled",
      amountCents: 2500,
      currency: "usd",
      stripePaymentIntentId: expect.stringMatching(/^pi_/),
    });
    const [charge] = await paymentIntentsFor(order!.id);
    expect(charge!.params).toMatchObject({
      off_session: "true",
      confirm: "true",
      customer: expect.stringMatching(/^cus_/),
      payment_method: account.paymentMethodId,
    });
    expect(charge!.idempotencyKey).toBe(`darkroom-top-up-${order!.id}`);
    expect(
      await db.ledgerEntry.count({
        where: { accountId: account.accountId, type: "add", sourceKey: `payment_intent:${order!.stripePaymentIntentId}` },
      }),
    ).toBe(1);
    expect(await db.activityEvent.count({ where: { accountId: account.accountId, action: "auto_top_up.succeeded" } })).toBe(1);
    expect(
      await db.webhookDelivery.count({ where: { accountId: account.accountId, eventKey: `credits.auto_top_up_succeeded:${order!.id}` } }),
    ).toBe(1);
    const view = await as(account.userId).billing.autoTopUp({ accountId: account.accountId });
    expect(view.spent_this_month).toBe(25);

    // A replay of Stripe's event (a new event id for the same PaymentIntent, and the same event again) adds nothing.
    const before = await balanceOf(account.accountId);
    const paymentIntent = await testStripe().paymentIntents.retrieve(order!.stripePaymentIntentId!);
    const replay = stripeEvent("payment_intent.succeeded", paymentIntent);
    expect((await postStripeWebhook(replay)).status).toBe(200);
    expect((await postStripeWebhook(replay)).body.data?.duplicate).toBe(true);
    await eventually(
      () => db.stripeEvent.findUnique({ where: { id: replay.id } }),
      (row) => row?.processedAt != null,
    );
    expect(await balanceOf(account.accountId)).toBe(before);
    expect(
      await db.ledgerEntry.count({ where: { accountId: account.accountId, type: "add", sourceKey: { startsWith: "payment_intent:" } } }),
    ).toBe(1);
  });

  it("1,000 concurrent reservations that drive the balance below the threshold start exactly one top-up", async () => {
    const account = await withAutoTopUp({ pack: 25 });
    const start = await balanceOf(account.accountId);
    // 1,000 × 0.005 = 5 credits: the threshold (the starting balance − 1) is crossed about the 200th.
    await db.autoTopUp.update({ where: { accountId: account.accountId }, data: { threshold: String(start - 1) } });
    const generations = await db.generation.createManyAndReturn({
      data: Array.from({ length: 1000 }, () => ({
        accountId: account.accountId,
        region: "us" as const,
        mediaKind: "image" as const,
        // Not in flight: the sweeper's and the concurrency cap's counts never see these stand-ins.
        status: "failed" as const,
        modelIdentifier: "test/model",
        estimatedCost: "0.005",
      })),
      select: { id: true },
    });
    const results = await Promise.all(
      generations.map((generation) =>
        inTransaction(
          (tx) =>
            reserveCredits(tx, {
              accountId: account.accountId,
              generationId: generation.id,
              amountMillis: 5,
              modelIdentifier: "test/model",
              description: "burst",
            }),
          TX,
        ),
      ),
    );
    expect(results.every((result) => result.applied)).toBe(true);
    const orders = await settledTopUps(account.accountId, 1);
    expect(orders.map((order) => order.status)).toEqual(["fulfilled"]);
    expect(await balanceOf(account.accountId)).toBe(start - 5 + 25);
    // Still below nothing, and the cooldown holds: more reservations start no second top-up.
    await reserve(account.accountId, 22_000);
    expect(await topUpsOf(account.accountId)).toHaveLength(1);
  });

  it("three declines in a row pause it: the owner is e-mailed and told in-app, and endpoints get credits.auto_top_up_failed", async () => {
    const account = await withAutoTopUp({ pack: 10 });
    await inTransaction((tx) =>
      createWebhookEndpoint(tx, {
        accountId: account.accountId,
        url: "http://127.0.0.1:9/hooks",
        events: ["credits.auto_top_up_failed"],
        actor: "system",
      }),
    );
    await cardOutcome(account.paymentMethodId, "decline");
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1) await afterCooldown(account.accountId);
      await reserve(account.accountId, 100);
      const orders = await settledTopUps(account.accountId, attempt);
      expect(orders.at(-1)).toMatchObject({ status: "failed", failureReason: expect.stringMatching(/declined.*generic_decline/) });
    }
    const setting = await db.autoTopUp.findUniqueOrThrow({ where: { accountId: account.accountId } });
    expect(setting).toMatchObject({ consecutiveFailures: 3, pausedAt: expect.any(Date), pauseReason: expect.stringMatching(/3 declines/) });
    expect(await db.activityEvent.count({ where: { accountId: account.accountId, action: "auto_top_up.paused" } })).toBe(1);
    expect(await db.notification.count({ where: { accountId: account.accountId, kind: "billing.auto_top_up_failed" } })).toBe(3);
    expect(await db.emailOutbox.count({ where: { kind: "billing.auto_top_up_failed", to: account.email } })).toBeGreaterThanOrEqual(3);
    expect(
      await db.webhookDelivery.count({ where: { accountId: account.accountId, eventKey: { startsWith: "credits.auto_top_up_failed:" } } }),
    ).toBe(3);

    // Paused: the next drop starts nothing, however long after.
    await afterCooldown(account.accountId);
    await reserve(account.accountId, 100);
    expect(await topUpsOf(account.accountId)).toHaveLength(3);
    const view = await as(account.userId).billing.autoTopUp({ accountId: account.accountId });
    expect(view).toMatchObject({
      paused: true,
      consecutive_failures: 3,
      last_failure: { reason: expect.stringMatching(/declined/) },
      spent_this_month: 0,
    });
  });

  it("the monthly cap stops the top-up that would pass it: not attempted, and the owner told", async () => {
    const account = await withAutoTopUp({ pack: 25, cap: 30 });
    await reserve(account.accountId, 100);
    await settledTopUps(account.accountId, 1);
    await afterCooldown(account.accountId);
    await reserve(account.accountId, 30_000);
    const orders = await settledTopUps(account.accountId, 2);
    expect(orders.map((order) => order.status)).toEqual(["fulfilled", "canceled"]);
    expect(orders[1]!.failureReason).toBe("monthly_cap");
    expect(await paymentIntentsFor(orders[1]!.id)).toHaveLength(0);
    const notice = await db.notification.findFirstOrThrow({ where: { accountId: account.accountId, kind: "billing.auto_top_up_failed" } });
    expect(notice.body).toMatch(/monthly auto top-up cap of 30\.00/);
  });

  it("the bank asking for the cardholder pauses it and e-mails a link to Stripe's page; paying there credits once and resumes it", async () => {
    const account = await withAutoTopUp({ pack: 10 });
    await cardOutcome(account.paymentMethodId, "authentication_required");
    await reserve(account.accountId, 100);
    const [order] = await settledTopUps(account.accountId, 1);
    expect(order).toMatchObject({ status: "requires_action", stripeCheckoutSessionId: expect.stringMatching(/^cs_/) });
    expect(await db.autoTopUp.findUniqueOrThrow({ where: { accountId: account.accountId } })).toMatchObject({
      pauseReason: "authentication_required",
      pausedAt: expect.any(Date),
    });
    expect(await db.emailOutbox.count({ where: { kind: "billing.auto_top_up_failed", to: account.email } })).toBe(1);
    const notice = await db.notification.findFirstOrThrow({ where: { accountId: account.accountId, kind: "billing.auto_top_up_failed" } });
    const link = /(http:\/\/127\.0\.0\.1:\d+\/c\/pay\/[^\s"<]+)/.exec(notice.body)?.[1];
    expect(link).toBeDefined();
    const before = await balanceOf(account.accountId);
    expect((await payCheckout(link!)).status).toBe(303);
    await eventually(
      () => db.order.findUniqueOrThrow({ where: { id: order!.id } }),
      (row) => row.status === "fulfilled",
    );
    expect(await balanceOf(account.accountId)).toBe(before + 10);
    expect((await db.autoTopUp.findUniqueOrThrow({ where: { accountId: account.accountId } })).pausedAt).toBeNull();
  });

  it("charges nothing once the subscription is no longer active", async () => {
    const account = await withAutoTopUp();
    await testStripe().subscriptions.cancel(account.subscriptionId);
    await eventually(
      () => db.subscription.findUniqueOrThrow({ where: { accountId: account.accountId } }),
      (row) => row.status === "canceled",
    );
    await reserve(account.accountId, 100);
    const [order] = await settledTopUps(account.accountId, 1);
    expect(order).toMatchObject({ status: "canceled", failureReason: "subscription_inactive" });
    expect(await paymentIntentsFor(order!.id)).toHaveLength(0);
  });

  it("paid while the subscription stopped being active: held for review like a pack, and order:approve credits it once", async () => {
    const account = await withAutoTopUp({ pack: 10 });
    const customer = (await db.account.findUniqueOrThrow({ where: { id: account.accountId } })).stripeCustomerId!;
    const hold = (path: string) =>
      fetch(`${stripeEnv().base}/_fake/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customer }),
      });
    expect((await hold("webhook_hold")).status).toBe(200);
    let orderId = "";
    try {
      await reserve(account.accountId, 100);
      const [charged] = await eventually(
        () => topUpsOf(account.accountId),
        (orders) => orders[0]?.status === "processing" && orders[0].stripePaymentIntentId !== null,
      );
      orderId = charged!.id;
      // The subscription ends at Stripe before the payment's webhook is applied.
      await testStripe().subscriptions.cancel(account.subscriptionId);
    } finally {
      await hold("webhook_release");
    }
    const before = await balanceOf(account.accountId);
    const swept = await sweepTopUps({ graceMs: 0 });
    expect(swept[orderId]).toBe("order needs manual review");
    expect(await db.order.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({ status: "manual_review" });
    expect(await balanceOf(account.accountId)).toBe(before);
    const approved = await cli(["order:approve", "--order", orderId]);
    expect(approved.code, JSON.stringify(approved.body)).toBe(0);
    expect(approved.body).toMatchObject({ order_id: orderId, status: "fulfilled" });
    expect(await balanceOf(account.accountId)).toBe(before + 10);
    expect((await cli(["order:approve", "--order", orderId])).code).toBe(0);
    expect(await balanceOf(account.accountId)).toBe(before + 10);
  });

  it("a webhook that never arrives is found by the sweep, which asks Stripe for the PaymentIntent", async () => {
    const account = await withAutoTopUp({ pack: 10 });
    const customer = (await db.account.findUniqueOrThrow({ where: { id: account.accountId } })).stripeCustomerId!;
    const hold = (path: string) =>
      fetch(`${stripeEnv().base}/_fake/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ customer }),
      });
    expect((await hold("webhook_hold")).status).toBe(200);
    try {
      const before = await balanceOf(account.accountId);
      await reserve(account.accountId, 100);
      const [charged] = await eventually(
        () => topUpsOf(account.accountId),
        (orders) => orders[0]?.status === "processing" && orders[0].stripePaymentIntentId !== null,
      );
      expect(await balanceOf(account.accountId)).toBe(before - 0.1);
      const swept = await sweepTopUps({ graceMs: 0 });
      expect(swept[charged!.id]).toMatch(/fulfilled|already fulfilled/);
      expect((await db.order.findUniqueOrThrow({ where: { id: charged!.id } })).status).toBe("fulfilled");
      expect(await balanceOf(account.accountId)).toBe(before - 0.1 + 10);
      await sweepTopUps({ graceMs: 0 });
      expect(
        await db.ledgerEntry.count({
          where: { accountId: account.accountId, sourceKey: `payment_intent:${charged!.stripePaymentIntentId}` },
        }),
      ).toBe(1);
    } finally {
      await hold("webhook_release");
    }
  });
});
