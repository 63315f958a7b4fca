import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startStripeFake, type StripeFake } from "@/tests/fakes/stripe-fake";
import { decodeStripeForm } from "@/tests/fakes/stripe/form";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/fakes/webhook-receiver";

// The Stripe fake driven by the real `stripe` SDK (as the billing code will drive it): catalog,
// errors, idempotency, Checkout through the hosted page, subscriptions, refunds, the portal, the
// /_fake controls, and webhooks verified with `stripe.webhooks.constructEvent`.

let fake: StripeFake;
let stripe: Stripe;
let receiver: WebhookReceiver;
let monthly: Stripe.Price;
let yearly: Stripe.Price;
let credits: Stripe.Price;
let seen = 0;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  fake = await startStripeFake({ webhookUrl: receiver.url });
  stripe = new Stripe(fake.secretKey, { host: "127.0.0.1", port: fake.port, protocol: "http", maxNetworkRetries: 0 });
  const product = await stripe.products.create({ id: "prod_darkroom_pro", name: "Darkroom Pro", metadata: { plan: "pro" } });
  monthly = await stripe.prices.create({
    product: product.id,
    unit_amount: 1900,
    currency: "usd",
    recurring: { interval: "month" },
    lookup_key: "pro_monthly",
  });
  yearly = await stripe.prices.create({
    product: product.id,
    unit_amount: 19000,
    currency: "usd",
    recurring: { interval: "year" },
    lookup_key: "pro_yearly",
  });
  const pack = await stripe.products.create({ name: "1,000 credits" });
  credits = await stripe.prices.create({ product: pack.id, unit_amount: 1000, currency: "usd", lookup_key: "credits_1000" });
});

afterAll(async () => {
  await fake?.close();
  await receiver?.close();
});

beforeEach(() => {
  seen = receiver.received.length;
});

/** Webhooks that arrived since the test began, each verified against the fake's signing secret. */
async function arrivedEvents(): Promise<Stripe.Event[]> {
  await fake.webhooksSettled();
  return receiver.received
    .slice(seen)
    .map((webhook) => stripe.webhooks.constructEvent(webhook.rawBody, webhook.headers.get("stripe-signature") ?? "", fake.webhookSecret));
}

async function payOnHostedPage(url: string, email = "buyer@example.com") {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }),
    redirect: "manual",
  });
}

async function subscribedCustomer(price = monthly, metadata: Record<string, string> = { account_id: "acc_1" }) {
  const customer = await stripe.customers.create({ email: `owner-${Math.random().toString(36).slice(2)}@example.com` });
  const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], metadata });
  await fake.webhooksSettled();
  seen = receiver.received.length;
  return { customer, subscription };
}

async function control(path: string, body?: unknown) {
  const response = await fetch(`${fake.baseUrl}/_fake${path}`, {
    method: body === undefined && path.startsWith("/requests") ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe("form decoding", () => {
  it("turns bracket notation into nested objects and arrays, keeping metadata keys as given", () => {
    const params = decodeStripeForm(
      "line_items[0][price]=price_x&line_items[0][quantity]=2&expand[0]=data.product&metadata[account_id]=a%201&metadata[0]=zero&lookup_keys[]=a&lookup_keys[]=b",
    );
    expect(params).toEqual({
      line_items: [{ price: "price_x", quantity: "2" }],
      expand: ["data.product"],
      metadata: { account_id: "a 1", "0": "zero" },
      lookup_keys: ["a", "b"],
    });
  });
});

describe("catalog", () => {
  it("finds prices by lookup key and expands their product", async () => {
    const list = await stripe.prices.list({ lookup_keys: ["pro_monthly", "pro_yearly"], expand: ["data.product"] });
    expect(list.object).toBe("list");
    expect(list.url).toBe("/v1/prices");
    expect(list.data.map((price) => price.lookup_key).sort()).toEqual(["pro_monthly", "pro_yearly"]);
    const found = list.data.find((price) => price.lookup_key === "pro_monthly") as Stripe.Price;
    expect(found).toMatchObject({
      id: monthly.id,
      object: "price",
      type: "recurring",
      unit_amount: 1900,
      currency: "usd",
      livemode: false,
      recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
    });
    expect((found.product as Stripe.Product).name).toBe("Darkroom Pro");
    expect(credits).toMatchObject({ type: "one_time", recurring: null, lookup_key: "credits_1000" });
  });

  it("answers an unexpanded product as an id and an expanded one as the object", async () => {
    expect((await stripe.prices.retrieve(monthly.id)).product).toBe("prod_darkroom_pro");
    const expanded = await stripe.prices.retrieve(monthly.id, { expand: ["product"] });
    expect(expanded.product).toMatchObject({ id: "prod_darkroom_pro", object: "product", metadata: { plan: "pro" } });
  });

  it("filters prices and products", async () => {
    expect((await stripe.prices.list({ type: "one_time" })).data.map((price) => price.id)).toEqual([credits.id]);
    expect((await stripe.prices.list({ product: "prod_darkroom_pro", limit: 1 })).has_more).toBe(true);
    expect((await stripe.products.list({ ids: ["prod_darkroom_pro"] })).data.map((product) => product.name)).toEqual(["Darkroom Pro"]);
  });

  it("refuses a duplicate product id and a taken lookup key, and moves the key with transfer_lookup_key", async () => {
    await expect(stripe.products.create({ id: "prod_darkroom_pro", name: "Again" })).rejects.toMatchObject({
      statusCode: 400,
      code: "resource_already_exists",
      param: "id",
    });
    await expect(
      stripe.prices.create({ product: "prod_darkroom_pro", unit_amount: 1, currency: "usd", lookup_key: "credits_1000" }),
    ).rejects.toMatchObject({ statusCode: 400, param: "lookup_key" });
    const moved = await stripe.prices.create({ product: "prod_darkroom_pro", unit_amount: 900, currency: "usd", lookup_key: "temp_key" });
    const taker = await stripe.prices.create({
      product: "prod_darkroom_pro",
      unit_amount: 800,
      currency: "usd",
      lookup_key: "temp_key",
      transfer_lookup_key: true,
    });
    expect((await stripe.prices.retrieve(moved.id)).lookup_key).toBeNull();
    expect((await stripe.prices.list({ lookup_keys: ["temp_key"] })).data.map((price) => price.id)).toEqual([taker.id]);
  });
});

describe("errors and idempotency", () => {
  it("answers 401 with Stripe's message for a wrong key", async () => {
    const stranger = new Stripe("sk_test_wrong_key_123456", { host: "127.0.0.1", port: fake.port, protocol: "http", maxNetworkRetries: 0 });
    const error = await stranger.customers.create({ email: "x@example.com" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error).toMatchObject({
      statusCode: 401,
      type: "StripeAuthenticationError",
      message: "Invalid API Key provided: sk_test_************3456",
    });
  });

  it("answers 404 resource_missing for an unknown id and for an unknown route", async () => {
    await expect(stripe.prices.retrieve("price_missing")).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
      param: "id",
      message: "No such price: 'price_missing'",
    });
    const response = await fetch(`${fake.baseUrl}/v1/nothing_here`, { headers: { Authorization: `Bearer ${fake.secretKey}` } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.message).toMatch(/^Unrecognized request URL \(GET: \/v1\/nothing_here\)/);
  });

  it("answers 400 parameter_missing naming the parameter", async () => {
    await expect(stripe.checkout.sessions.create({ line_items: [{ price: monthly.id, quantity: 1 }] } as any)).rejects.toMatchObject({
      statusCode: 400,
      code: "parameter_missing",
      param: "mode",
    });
    await expect(stripe.checkout.sessions.create({ mode: "subscription" })).rejects.toMatchObject({
      code: "parameter_missing",
      param: "line_items",
    });
    await expect(stripe.checkout.sessions.create({ mode: "subscription", line_items: [{ price: monthly.id }] })).rejects.toMatchObject({
      param: "line_items[0][quantity]",
    });
  });

  it("replays the first answer for the same Idempotency-Key and refuses other parameters under it", async () => {
    const first = await stripe.customers.create({ email: "same@example.com" }, { idempotencyKey: "signup-42" });
    const again = await stripe.customers.create({ email: "same@example.com" }, { idempotencyKey: "signup-42" });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers["idempotent-replayed"]).toBe("true");
    expect(first.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
    expect((await stripe.customers.list({ email: "same@example.com" })).data).toHaveLength(1);
    const error = await stripe.customers
      .create({ email: "other@example.com" }, { idempotencyKey: "signup-42" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(fake.requests.filter((request) => request.idempotencyKey === "signup-42")).toHaveLength(3);
  });
});

describe("Checkout in subscription mode", () => {
  it("creates an open session, pays on the hosted page, and leaves a subscription with a paid invoice and signed events", async () => {
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: monthly.id, quantity: 1 }],
      customer_email: "new@example.com",
      client_reference_id: "acc_7",
      success_url: "http://app.test/billing?session={CHECKOUT_SESSION_ID}",
      cancel_url: "http://app.test/billing",
      metadata: { account_id: "acc_7" },
      subscription_data: { metadata: { account_id: "acc_7" } },
    });
    expect(session).toMatchObject({
      object: "checkout.session",
      status: "open",
      payment_status: "unpaid",
      mode: "subscription",
      subscription: null,
      payment_intent: null,
      amount_total: 1900,
      currency: "usd",
      customer: null,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${fake.baseUrl}/c/pay/${session.id}`);
    expect(session.expires_at).toBe(session.created + 86_400);

    const page = await (await fetch(session.url ?? "")).text();
    expect(page).toContain("<h1>Darkroom Pro — $19.00 per month</h1>");
    expect(page).toContain('<button type="submit">Pay</button>');
    expect(page).toContain('<a href="http://app.test/billing">Back</a>');

    const paid = await payOnHostedPage(session.url ?? "", "new@example.com");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://app.test/billing?session=${session.id}`);
    expect((await payOnHostedPage(session.url ?? "")).status).toBe(400);

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription", "line_items"] });
    expect(done).toMatchObject({ status: "complete", payment_status: "paid", customer_details: { email: "new@example.com" } });
    expect(done.line_items?.data[0]).toMatchObject({
      object: "item",
      quantity: 1,
      amount_total: 1900,
      price: { id: monthly.id, lookup_key: "pro_monthly" },
    });
    const subscription = done.subscription as Stripe.Subscription;
    expect(subscription).toMatchObject({
      object: "subscription",
      status: "active",
      customer: done.customer,
      currency: "usd",
      cancel_at_period_end: false,
      metadata: { account_id: "acc_7" },
    });
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    expect(item.price).toMatchObject({
      id: monthly.id,
      lookup_key: "pro_monthly",
      product: "prod_darkroom_pro",
      recurring: { interval: "month" },
    });
    const start = new Date(item.current_period_start * 1000);
    const end = new Date(item.current_period_end * 1000);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect(end.toISOString().slice(11)).toBe(start.toISOString().slice(11));
    expect((await stripe.customers.retrieve(done.customer as string)) as Stripe.Customer).toMatchObject({ email: "new@example.com" });

    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string, { expand: ["payments"] });
    expect(invoice).toMatchObject({
      status: "paid",
      billing_reason: "subscription_create",
      amount_paid: 1900,
      currency: "usd",
      customer: done.customer,
    });
    expect(invoice.parent).toEqual({
      type: "subscription_details",
      quote_details: null,
      subscription_details: { subscription: subscription.id, metadata: { account_id: "acc_7" } },
    });
    expect(invoice.lines.data[0]).toMatchObject({
      pricing: { type: "price_details", price_details: { price: monthly.id, product: "prod_darkroom_pro" } },
      period: { start: item.current_period_start, end: item.current_period_end },
    });
    const paymentIntentId = (invoice.payments?.data[0]?.payment as any).payment_intent as string;
    const paymentIntent = await stripe.paymentIntents.retrieve(paymentIntentId);
    expect(paymentIntent).toMatchObject({ status: "succeeded", amount: 1900, customer: done.customer });
    expect(await stripe.charges.retrieve(paymentIntent.latest_charge as string)).toMatchObject({
      paid: true,
      refunded: false,
      amount_refunded: 0,
      payment_intent: paymentIntentId,
    });
    expect((await stripe.invoices.list({ subscription: subscription.id })).data.map((each) => each.id)).toEqual([invoice.id]);

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["customer.subscription.created", "invoice.paid", "checkout.session.completed"]);
    for (const event of events)
      expect(event).toMatchObject({
        object: "event",
        api_version: "2026-10-28.endive",
        livemode: false,
        request: { id: null, idempotency_key: null },
      });
    expect((events[2]?.data.object as Stripe.Checkout.Session).subscription).toBe(subscription.id);
    expect((events[0]?.data.object as Stripe.Subscription).items.data[0]?.price.lookup_key).toBe("pro_monthly");
    expect(fake.events.slice(-3).every((sent) => sent.deliveries[0]?.status === 200)).toBe(true);
    const delivered = receiver.received.at(-1);
    const signature = delivered?.headers.get("stripe-signature") ?? "";
    const timestamp = Number(/t=(\d+)/.exec(signature)?.[1]);
    expect(signature).toBe(
      stripe.webhooks.generateTestHeaderString({ payload: delivered?.rawBody ?? "", secret: fake.webhookSecret, timestamp }),
    );
  });

  it("refuses a recurring price in payment mode and expires an open session", async () => {
    await expect(
      stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: monthly.id, quantity: 1 }] }),
    ).rejects.toMatchObject({
      statusCode: 400,
      param: "line_items[0][price]",
      message: expect.stringMatching(/recurring price/),
    });
    await expect(
      stripe.checkout.sessions.create({ mode: "subscription", line_items: [{ price: credits.id, quantity: 1 }] }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const session = await stripe.checkout.sessions.create({ mode: "subscription", line_items: [{ price: monthly.id, quantity: 1 }] });
    expect((await stripe.checkout.sessions.expire(session.id)).status).toBe("expired");
    expect((await arrivedEvents()).map((event) => event.type)).toEqual(["checkout.session.expired"]);
  });
});

describe("Checkout in payment mode", () => {
  it("leaves a succeeded payment intent with the requested metadata and its charge", async () => {
    const customer = await stripe.customers.create({ email: "pack@example.com" });
    const session = await stripe.checkout.sessions.create({
      mode: "payment",
      customer: customer.id,
      line_items: [{ price: credits.id, quantity: 2 }],
      payment_intent_data: { metadata: { account_id: "acc_9", credits: "2000" } },
      success_url: "http://app.test/ok",
    });
    expect(session.amount_total).toBe(2000);
    const lines = await stripe.checkout.sessions.listLineItems(session.id);
    expect(lines.data[0]).toMatchObject({ quantity: 2, price: { lookup_key: "credits_1000" } });
    expect((await payOnHostedPage(session.url ?? "")).headers.get("location")).toBe("http://app.test/ok");

    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["payment_intent"] });
    const paymentIntent = done.payment_intent as Stripe.PaymentIntent;
    expect(paymentIntent).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount: 2000,
      customer: customer.id,
      metadata: { account_id: "acc_9", credits: "2000" },
    });
    expect(await stripe.charges.retrieve(paymentIntent.latest_charge as string)).toMatchObject({
      paid: true,
      refunded: false,
      amount_refunded: 0,
      payment_intent: paymentIntent.id,
      amount: 2000,
    });
    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["checkout.session.completed"]);
    expect(events[0]?.data.object).toMatchObject({ id: session.id, payment_intent: paymentIntent.id, payment_status: "paid" });
  });
});

describe("subscription changes", () => {
  it("switches price through items[0][id], restarting the period for a new interval, with previous_attributes", async () => {
    const { subscription } = await subscribedCustomer();
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    const updated = await stripe.subscriptions.update(
      subscription.id,
      { items: [{ id: item.id, price: yearly.id }], proration_behavior: "create_prorations" },
      { idempotencyKey: "switch-1" },
    );
    const newItem = updated.items.data[0] as Stripe.SubscriptionItem;
    expect(newItem).toMatchObject({ id: item.id, price: { id: yearly.id, lookup_key: "pro_yearly" } });
    expect(newItem.current_period_end - newItem.current_period_start).toBeGreaterThanOrEqual(365 * 86_400);

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["customer.subscription.updated", "invoice.paid"]);
    const previous = events[0]?.data.previous_attributes as any;
    expect(previous.items.data[0].price.lookup_key).toBe("pro_monthly");
    expect(events[0]?.request).toEqual({ id: expect.stringMatching(/^req_/), idempotency_key: "switch-1" });
    expect((events[1]?.data.object as Stripe.Invoice).billing_reason).toBe("subscription_update");
  });

  it("sets and undoes cancel_at_period_end, then cancels at once", async () => {
    const { subscription } = await subscribedCustomer();
    const periodEnd = subscription.items.data[0]?.current_period_end;
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({ cancel_at_period_end: true, cancel_at: periodEnd, status: "active" });
    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false, metadata: { note: "stayed" } });
    const canceled = await stripe.subscriptions.cancel(subscription.id);
    expect(canceled).toMatchObject({
      status: "canceled",
      ended_at: expect.any(Number),
      canceled_at: expect.any(Number),
      metadata: { account_id: "acc_1", note: "stayed" },
    });
    await expect(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })).rejects.toMatchObject({ statusCode: 400 });

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual([
      "customer.subscription.updated",
      "customer.subscription.updated",
      "customer.subscription.deleted",
    ]);
    expect(events[0]?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false, cancel_at: null });
    expect(events[1]?.data.previous_attributes).toMatchObject({ cancel_at_period_end: true, metadata: { account_id: "acc_1" } });
    expect((await stripe.subscriptions.list({ customer: canceled.customer as string })).data).toHaveLength(0);
    expect(
      (await stripe.subscriptions.list({ customer: canceled.customer as string, status: "canceled" })).data.map((each) => each.id),
    ).toEqual([subscription.id]);
  });

  it("starts a trial with a zero invoice when created directly with trial_period_days", async () => {
    const customer = await stripe.customers.create({ email: "trial@example.com" });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      trial_period_days: 7,
      expand: ["latest_invoice"],
    });
    expect(subscription).toMatchObject({ status: "trialing", trial_end: (subscription.trial_start ?? 0) + 7 * 86_400 });
    expect(subscription.latest_invoice).toMatchObject({
      object: "invoice",
      amount_paid: 0,
      status: "paid",
      billing_reason: "subscription_create",
    });
  });
});

describe("refunds", () => {
  it("refunds part then the rest, marks the charge refunded, and refuses more", async () => {
    const { subscription } = await subscribedCustomer();
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string, { expand: ["payments"] });
    const paymentIntent = (invoice.payments?.data[0]?.payment as any).payment_intent as string;

    const partial = await stripe.refunds.create({
      payment_intent: paymentIntent,
      amount: 500,
      reason: "requested_by_customer",
      metadata: { ticket: "T-1" },
    });
    expect(partial).toMatchObject({
      object: "refund",
      status: "succeeded",
      amount: 500,
      payment_intent: paymentIntent,
      metadata: { ticket: "T-1" },
    });
    await expect(stripe.refunds.create({ charge: partial.charge as string, amount: 5000 })).rejects.toMatchObject({
      statusCode: 400,
      param: "amount",
    });
    const rest = await stripe.refunds.create({ charge: partial.charge as string });
    expect(rest.amount).toBe(1400);
    expect(await stripe.charges.retrieve(partial.charge as string)).toMatchObject({ amount_refunded: 1900, refunded: true });
    await expect(stripe.refunds.create({ payment_intent: paymentIntent })).rejects.toMatchObject({
      statusCode: 400,
      code: "charge_already_refunded",
    });

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["charge.refunded", "refund.created", "charge.refunded", "refund.created"]);
    expect(events[0]?.data.object).toMatchObject({ object: "charge", amount_refunded: 500, refunded: false });
    expect(events[0]?.data.previous_attributes).toEqual({ amount_refunded: 0, refunded: false });
    expect(events[2]?.data.object).toMatchObject({ amount_refunded: 1900, refunded: true });
  });
});

describe("test controls", () => {
  it("renews a subscription into a new paid period, or ends it when cancel_at_period_end was set", async () => {
    const { subscription } = await subscribedCustomer();
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    const renewed = await control(`/subscriptions/${subscription.id}/renew`, {});
    expect(renewed.status).toBe(200);
    expect(renewed.body.items.data[0].current_period_start).toBe(item.current_period_end);
    const invoice = await stripe.invoices.retrieve(renewed.body.latest_invoice);
    expect(invoice).toMatchObject({
      status: "paid",
      billing_reason: "subscription_cycle",
      amount_paid: 1900,
      period_start: item.current_period_start,
      period_end: item.current_period_end,
    });
    expect(invoice.lines.data[0]?.period).toEqual({ start: item.current_period_end, end: renewed.body.items.data[0].current_period_end });
    expect(fake.now()).toBeGreaterThanOrEqual(item.current_period_end);

    await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    const ended = await control(`/subscriptions/${subscription.id}/renew`, {});
    expect(ended.body).toMatchObject({ status: "canceled", ended_at: renewed.body.items.data[0].current_period_end });
    expect((await arrivedEvents()).map((event) => event.type)).toEqual([
      "invoice.paid",
      "customer.subscription.updated",
      "customer.subscription.updated",
      "customer.subscription.deleted",
    ]);
  });

  it("fails a renewal payment: open invoice, past_due subscription", async () => {
    const { subscription } = await subscribedCustomer();
    const failed = await control(`/subscriptions/${subscription.id}/fail_payment`, {});
    expect(failed.body.status).toBe("past_due");
    expect(await stripe.invoices.retrieve(failed.body.latest_invoice)).toMatchObject({
      status: "open",
      billing_reason: "subscription_cycle",
      attempt_count: 1,
      amount_paid: 0,
      amount_remaining: 1900,
    });
    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["invoice.payment_failed", "customer.subscription.updated"]);
    expect(events[1]?.data.previous_attributes).toMatchObject({ status: "active" });
  });

  it("opens a dispute on a charge", async () => {
    const { subscription } = await subscribedCustomer();
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string, {
      expand: ["payments.data.payment.payment_intent"],
    });
    const paymentIntent = invoice.payments?.data[0]?.payment.payment_intent as Stripe.PaymentIntent;
    const dispute = await control(`/charges/${paymentIntent.latest_charge}/dispute`, {});
    expect(dispute.body).toMatchObject({
      object: "dispute",
      charge: paymentIntent.latest_charge,
      payment_intent: paymentIntent.id,
      amount: 1900,
      reason: "fraudulent",
      status: "needs_response",
    });
    expect(dispute.body.id).toMatch(/^dp_/);
    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["charge.dispute.created"]);
  });

  it("lists recorded requests, resends an event, and moves the webhook target", async () => {
    await control("/reset_requests", {});
    await stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: monthly.id, quantity: 1 }],
      metadata: { account_id: "acc_3" },
    });
    const requests = await control("/requests?path=/v1/checkout/sessions&method=POST");
    expect(requests.body).toHaveLength(1);
    expect(requests.body[0].params).toMatchObject({
      mode: "subscription",
      line_items: [{ price: monthly.id, quantity: "1" }],
      metadata: { account_id: "acc_3" },
    });

    const last = fake.events.at(-1)?.event.id as string;
    const resent = await control(`/events/${last}/resend`, {});
    expect(resent.body.deliveries.length).toBeGreaterThanOrEqual(2);
    const events = await arrivedEvents();
    expect(events.map((event) => event.id)).toEqual([last]);
    expect((await stripe.events.retrieve(last)).id).toBe(last);

    await control("/webhook_target", { url: null });
    const { subscription } = await subscribedCustomer();
    expect(fake.events.at(-1)?.deliveries).toEqual([]);
    expect((await stripe.events.list({ type: "customer.subscription.*", limit: 1 })).data[0]?.data.object).toMatchObject({
      id: subscription.id,
    });
    fake.setWebhookTarget(receiver.url);
  });
});

describe("customer portal", () => {
  it("creates a portal session whose page cancels at period end, undoes it and switches price", async () => {
    const { customer, subscription } = await subscribedCustomer();
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://app.test/billing" });
    expect(portal).toMatchObject({
      object: "billing_portal.session",
      customer: customer.id,
      return_url: "http://app.test/billing",
      url: `${fake.baseUrl}/p/session/${portal.id}`,
    });
    expect(portal.id).toMatch(/^bps_/);
    await expect(stripe.billingPortal.sessions.create({} as any)).rejects.toMatchObject({ code: "parameter_missing", param: "customer" });

    const page = await (await fetch(portal.url)).text();
    expect(page).toContain(">Cancel at period end</button>");
    expect(page).toContain(">Switch to pro_yearly</button>");
    expect(page).toContain('<a href="http://app.test/billing">Return</a>');
    const act = (fields: Record<string, string>) =>
      fetch(portal.url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ subscription: subscription.id, ...fields }),
        redirect: "manual",
      });

    const cancel = await act({ action: "cancel" });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get("location")).toBe(`/p/session/${portal.id}`);
    expect((await stripe.subscriptions.retrieve(subscription.id)).cancel_at_period_end).toBe(true);
    expect(await (await fetch(portal.url)).text()).toContain(">Renew (undo cancel)</button>");
    await act({ action: "renew" });
    await act({ action: "switch", price: yearly.id });
    const after = await stripe.subscriptions.retrieve(subscription.id);
    expect(after).toMatchObject({ cancel_at_period_end: false, items: { data: [{ price: { lookup_key: "pro_yearly" } }] } });

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual([
      "customer.subscription.updated",
      "customer.subscription.updated",
      "customer.subscription.updated",
      "invoice.paid",
    ]);
    expect(events[0]?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
  });
});

async function submitHostedPage(url: string, fields: Record<string, string>) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

/** A customer with a card attached through a test-mode magic id (`pm_card_visa`…), and no events pending. */
async function customerWithCard(magicId: string) {
  const customer = await stripe.customers.create({ email: `card-${Math.random().toString(36).slice(2)}@example.com` });
  const card = await stripe.paymentMethods.attach(magicId, { customer: customer.id });
  await fake.webhooksSettled();
  seen = receiver.received.length;
  return { customer, card };
}

function offSessionCharge(customer: string, paymentMethod: string, idempotencyKey?: string, amount = 1000) {
  return stripe.paymentIntents.create(
    {
      amount,
      currency: "usd",
      customer,
      payment_method: paymentMethod,
      off_session: true,
      confirm: true,
      description: "Auto top-up",
      metadata: { account_id: "acc_top", purpose: "auto_top_up" },
    },
    idempotencyKey ? { idempotencyKey } : undefined,
  );
}

describe("Checkout in setup mode", () => {
  it("saves a card through the hosted page: a succeeded SetupIntent, the card attached, and signed events in order", async () => {
    const customer = await stripe.customers.create({ email: "saver@example.com" });
    await expect(
      stripe.checkout.sessions.create({ mode: "setup", currency: "usd", line_items: [{ price: credits.id, quantity: 1 }] }),
    ).rejects.toMatchObject({ statusCode: 400, param: "line_items", message: "You can not pass `line_items` in `setup` mode." });
    await expect(stripe.checkout.sessions.create({ mode: "setup", currency: "usd", customer: "cus_missing" })).rejects.toMatchObject({
      code: "resource_missing",
      param: "customer",
    });

    const session = await stripe.checkout.sessions.create({
      mode: "setup",
      customer: customer.id,
      currency: "usd",
      allowed_payment_method_types: ["card"],
      client_reference_id: "acc_s",
      metadata: { account_id: "acc_s" },
      setup_intent_data: { metadata: { account_id: "acc_s", purpose: "auto_top_up_card" } },
      success_url: "http://app.test/billing?card=saved&session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://app.test/billing?card=canceled",
    });
    expect(session).toMatchObject({
      mode: "setup",
      status: "open",
      amount_total: null,
      amount_subtotal: null,
      currency: "usd",
      customer: customer.id,
      payment_status: "no_payment_required",
      setup_intent: null,
      payment_intent: null,
      allowed_payment_method_types: ["card"],
      payment_method_types: ["card"],
      metadata: { account_id: "acc_s" },
    });
    expect((await stripe.checkout.sessions.listLineItems(session.id)).data).toEqual([]);

    const page = await (await fetch(session.url ?? "")).text();
    expect(page).toContain('<label for="card">Card</label> <select id="card" name="card">');
    expect(page).toContain('<option value="4242424242424242" selected>4242 4242 4242 4242 — always succeeds</option>');
    expect(page).toContain("4000 0000 0000 0002 — declines (card_declined / generic_decline)");
    expect(page).toContain("4000 0000 0000 9995 — declines (insufficient_funds)");
    expect(page).toContain("4000 0027 6000 3184 — requires authentication");
    expect(page).toContain('<input id="email" name="email" type="email" value="saver@example.com" required>');
    expect(page).toContain('<button type="submit">Save card</button>');
    expect(page).toContain('<a href="http://app.test/billing?card=canceled">Back</a>');

    const saved = await submitHostedPage(session.url ?? "", { email: "saver@example.com", card: "4000000000000002" });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`http://app.test/billing?card=saved&session_id=${session.id}`);

    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: "complete", payment_status: "no_payment_required", customer: customer.id, url: null });
    const intent = await stripe.setupIntents.retrieve(done.setup_intent as string, { expand: ["payment_method"] });
    expect(intent).toMatchObject({
      object: "setup_intent",
      status: "succeeded",
      usage: "off_session",
      customer: customer.id,
      metadata: { account_id: "acc_s", purpose: "auto_top_up_card" },
      payment_method_types: ["card"],
      last_setup_error: null,
    });
    expect(intent.id).toMatch(/^seti_/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    const method = intent.payment_method as Stripe.PaymentMethod;
    expect(method).toMatchObject({
      object: "payment_method",
      type: "card",
      customer: customer.id,
      card: { brand: "visa", last4: "0002", exp_month: 12, exp_year: 2034, funding: "credit", country: "US" },
      billing_details: { email: "saver@example.com" },
    });
    expect(method.id).toMatch(/^pm_/);
    expect(await stripe.paymentMethods.retrieve(method.id)).toMatchObject({ id: method.id, card: { last4: "0002" } });
    expect((await stripe.customers.listPaymentMethods(customer.id, { type: "card" })).data.map((each) => each.id)).toEqual([method.id]);
    await expect(stripe.setupIntents.retrieve("seti_missing")).rejects.toMatchObject({ statusCode: 404, code: "resource_missing" });

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual([
      "payment_method.attached",
      "setup_intent.created",
      "setup_intent.succeeded",
      "checkout.session.completed",
    ]);
    expect(events[0]?.data.object).toMatchObject({ id: method.id, customer: customer.id });
    expect(events[2]?.data.object).toMatchObject({ id: intent.id, status: "succeeded", payment_method: method.id });
    expect(events[3]?.data.object).toMatchObject({ id: session.id, mode: "setup", setup_intent: intent.id, status: "complete" });
  });

  it("creates the customer on completion when the session had none, and keeps the payment page's Pay button", async () => {
    await expect(stripe.checkout.sessions.create({ mode: "setup" })).rejects.toMatchObject({
      code: "parameter_missing",
      param: "currency",
    });
    const session = await stripe.checkout.sessions.create({ mode: "setup", currency: "usd" });
    expect(session).toMatchObject({ customer: null, payment_status: "no_payment_required", allowed_payment_method_types: null });
    expect((await submitHostedPage(session.url ?? "", { email: "new-saver@example.com" })).status).toBe(200);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["setup_intent.payment_method"] });
    expect(done.customer).toMatch(/^cus_/);
    const method = (done.setup_intent as Stripe.SetupIntent).payment_method as Stripe.PaymentMethod;
    expect(method).toMatchObject({ customer: done.customer, card: { last4: "4242" } });
    expect((await stripe.customers.retrieve(done.customer as string)) as Stripe.Customer).toMatchObject({ email: "new-saver@example.com" });

    const payment = await stripe.checkout.sessions.create({ mode: "payment", line_items: [{ price: credits.id, quantity: 1 }] });
    const page = await (await fetch(payment.url ?? "")).text();
    expect(page).toContain('<button type="submit">Pay</button>');
    expect(page).not.toContain("<select");
    const declined = await submitHostedPage(payment.url ?? "", { email: "p@example.com", card: "4000000000009995" });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card has insufficient funds.");
    expect((await stripe.checkout.sessions.retrieve(payment.id)).status).toBe("open");
    expect((await submitHostedPage(payment.url ?? "", { email: "p@example.com", card: "4000002760003184" })).status).toBe(200);
    const paid = await stripe.checkout.sessions.retrieve(payment.id, { expand: ["payment_intent.latest_charge"] });
    const charge = (paid.payment_intent as Stripe.PaymentIntent).latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({ paid: true, payment_method_details: { card: { last4: "3184" } } });
  });
});

describe("off-session payment intents", () => {
  it("charges a saved card: succeeded with its charge, events carrying the metadata", async () => {
    const { customer, card } = await customerWithCard("pm_card_visa");
    expect(card.id).toMatch(/^pm_/);
    expect(card).toMatchObject({ customer: customer.id, card: { last4: "4242", brand: "visa" } });
    const paymentIntent = await offSessionCharge(customer.id, card.id, "topup-ok");
    expect(paymentIntent).toMatchObject({
      object: "payment_intent",
      status: "succeeded",
      amount: 1000,
      amount_received: 1000,
      currency: "usd",
      customer: customer.id,
      payment_method: card.id,
      description: "Auto top-up",
      metadata: { account_id: "acc_top", purpose: "auto_top_up" },
      last_payment_error: null,
    });
    const charge = await stripe.charges.retrieve(paymentIntent.latest_charge as string);
    expect(charge).toMatchObject({
      status: "succeeded",
      paid: true,
      captured: true,
      amount: 1000,
      customer: customer.id,
      payment_intent: paymentIntent.id,
      payment_method: card.id,
      metadata: { account_id: "acc_top" },
      payment_method_details: { type: "card", card: { brand: "visa", last4: "4242" } },
    });
    expect((await stripe.paymentIntents.list({ customer: customer.id })).data.map((each) => each.id)).toEqual([paymentIntent.id]);

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["payment_intent.created", "charge.succeeded", "payment_intent.succeeded"]);
    for (const event of events) expect(event.request).toEqual({ id: expect.stringMatching(/^req_/), idempotency_key: "topup-ok" });
    expect(events[2]?.data.object).toMatchObject({ id: paymentIntent.id, status: "succeeded", metadata: { purpose: "auto_top_up" } });
  });

  it("answers a declined card with a 402 card_error carrying the failed payment intent", async () => {
    const { customer, card } = await customerWithCard("pm_card_chargeDeclined");
    const error = (await offSessionCharge(customer.id, card.id).catch((caught: unknown) => caught)) as Stripe.errors.StripeCardError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({
      statusCode: 402,
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
    });
    const raw = error.raw as any;
    expect(raw.charge).toMatch(/^ch_/);
    expect(raw.payment_method).toMatchObject({ id: card.id, customer: customer.id });
    expect(raw.payment_intent).toMatchObject({
      status: "requires_payment_method",
      payment_method: null,
      latest_charge: raw.charge,
      metadata: { account_id: "acc_top", purpose: "auto_top_up" },
      last_payment_error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", charge: raw.charge },
    });
    expect(raw.payment_intent.last_payment_error.payment_method.id).toBe(card.id);
    expect(await stripe.paymentIntents.retrieve(raw.payment_intent.id)).toMatchObject({ status: "requires_payment_method" });
    expect(await stripe.charges.retrieve(raw.charge)).toMatchObject({
      status: "failed",
      paid: false,
      failure_code: "card_declined",
      outcome: { type: "issuer_declined", reason: "generic_decline" },
    });

    const events = await arrivedEvents();
    expect(events.map((event) => event.type)).toEqual(["payment_intent.created", "charge.failed", "payment_intent.payment_failed"]);
    expect(events[2]?.data.object).toMatchObject({
      id: raw.payment_intent.id,
      metadata: { account_id: "acc_top", purpose: "auto_top_up" },
      last_payment_error: { code: "card_declined" },
    });

    const { customer: poor, card: empty } = await customerWithCard("pm_card_chargeDeclinedInsufficientFunds");
    await expect(offSessionCharge(poor.id, empty.id)).rejects.toMatchObject({
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    });
  });

  it("refuses an off-session charge that needs authentication, and waits for it on-session", async () => {
    const { customer, card } = await customerWithCard("pm_card_authenticationRequired");
    expect(card.card?.last4).toBe("3184");
    const error = (await offSessionCharge(customer.id, card.id).catch((caught: unknown) => caught)) as Stripe.errors.StripeCardError;
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({
      statusCode: 402,
      code: "authentication_required",
      decline_code: "authentication_required",
      message: "Your card was declined. This transaction requires authentication.",
    });
    const raw = error.raw as any;
    expect(raw.payment_intent).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "authentication_required", payment_method: { id: card.id } },
    });
    expect((await arrivedEvents()).map((event) => event.type)).toEqual(["payment_intent.created", "payment_intent.payment_failed"]);

    const onSession = await stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      customer: customer.id,
      payment_method: card.id,
      confirm: true,
    });
    expect(onSession).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk" } });
  });

  it("refuses what Stripe refuses: a small amount, another customer's card, a confirmation without a card", async () => {
    const { customer, card } = await customerWithCard("pm_card_visa");
    const other = await stripe.customers.create({ email: "other@example.com" });
    await expect(offSessionCharge(customer.id, card.id, undefined, 20)).rejects.toMatchObject({
      statusCode: 400,
      code: "amount_too_small",
      param: "amount",
      message: "Amount must be at least $0.50 usd",
    });
    await expect(stripe.paymentIntents.create({ currency: "usd" } as any)).rejects.toMatchObject({
      code: "parameter_missing",
      param: "amount",
    });
    await expect(offSessionCharge(other.id, card.id)).rejects.toMatchObject({
      statusCode: 400,
      param: "payment_method",
      message: expect.stringContaining(`belongs to the Customer ${customer.id}`),
    });
    await expect(
      stripe.paymentIntents.create({ amount: 1000, currency: "usd", customer: other.id, off_session: true, confirm: true }),
    ).rejects.toMatchObject({ statusCode: 400, code: "payment_intent_unexpected_state" });
    await expect(offSessionCharge(customer.id, "pm_missing")).rejects.toMatchObject({ code: "resource_missing", param: "payment_method" });

    const waiting = await stripe.paymentIntents.create({ amount: 1000, currency: "usd", customer: customer.id, payment_method: card.id });
    expect(waiting).toMatchObject({ status: "requires_confirmation", amount_received: 0, latest_charge: null });
    expect(await stripe.paymentIntents.create({ amount: 1000, currency: "usd" })).toMatchObject({ status: "requires_payment_method" });
    expect(await stripe.paymentIntents.confirm(waiting.id, { off_session: true })).toMatchObject({ status: "succeeded" });
    await expect(stripe.paymentIntents.confirm(waiting.id)).rejects.toMatchObject({ code: "payment_intent_unexpected_state" });
  });

  it("sets the customer's invoice default to an attached card, and detaching unsets it", async () => {
    const { customer, card } = await customerWithCard("pm_card_visa");
    const loose = await stripe.paymentMethods.attach("pm_card_visa", { customer: (await stripe.customers.create({})).id });
    await expect(stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: loose.id } })).rejects.toMatchObject({
      statusCode: 400,
      param: "invoice_settings[default_payment_method]",
    });
    const updated = await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } });
    expect(updated.invoice_settings.default_payment_method).toBe(card.id);
    const detached = await stripe.paymentMethods.detach(card.id);
    expect(detached.customer).toBeNull();
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).invoice_settings.default_payment_method).toBeNull();
    await expect(stripe.paymentMethods.detach(card.id)).rejects.toMatchObject({ statusCode: 400 });
    expect((await stripe.customers.listPaymentMethods(customer.id)).data).toEqual([]);

    const events = (await arrivedEvents()).filter((event) => event.type !== "payment_method.attached");
    expect(events.map((event) => event.type)).toEqual(["customer.updated", "payment_method.detached", "customer.updated"]);
    expect(events[0]?.data.previous_attributes).toMatchObject({ invoice_settings: { default_payment_method: null } });
    expect(events[1]?.data.previous_attributes).toEqual({ customer: customer.id });
  });
});

describe("idempotency of executed requests", () => {
  it("replays a 402 card error under the same key, and does not save a parameter error", async () => {
    const { customer, card } = await customerWithCard("pm_card_chargeDeclined");
    const first = (await offSessionCharge(customer.id, card.id, "topup-402").catch(
      (caught: unknown) => caught,
    )) as Stripe.errors.StripeError;
    const again = (await offSessionCharge(customer.id, card.id, "topup-402").catch(
      (caught: unknown) => caught,
    )) as Stripe.errors.StripeError;
    expect(first).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(again).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(again.statusCode).toBe(402);
    // The SDK adds the response's headers and request id to `raw`; the rest is the saved body.
    const body = (error: Stripe.errors.StripeError) => {
      const { headers: _headers, requestId: _requestId, ...rest } = error.raw as Record<string, unknown>;
      return rest;
    };
    expect(body(again)).toEqual(body(first));
    expect(body(again)).toMatchObject({ code: "card_declined", payment_intent: { status: "requires_payment_method" } });
    expect(again.headers?.["idempotent-replayed"]).toBe("true");
    expect(again.headers?.["original-request"]).toBe(first.requestId);
    expect(first.headers?.["idempotent-replayed"]).toBeUndefined();
    expect((await stripe.paymentIntents.list({ customer: customer.id })).data).toHaveLength(1);
    expect((await arrivedEvents()).map((event) => event.type)).toEqual([
      "payment_intent.created",
      "charge.failed",
      "payment_intent.payment_failed",
    ]);

    const { customer: payer, card: good } = await customerWithCard("pm_card_visa");
    await expect(offSessionCharge(payer.id, good.id, "topup-fix", 20)).rejects.toMatchObject({ code: "amount_too_small" });
    const fixed = await offSessionCharge(payer.id, good.id, "topup-fix");
    expect(fixed.status).toBe("succeeded");
    expect(fixed.lastResponse.headers["idempotent-replayed"]).toBeUndefined();
  });
});

describe("card and webhook controls", () => {
  it("makes a saved card start declining, then succeed again", async () => {
    const { customer, card } = await customerWithCard("pm_card_visa");
    expect((await offSessionCharge(customer.id, card.id)).status).toBe("succeeded");
    const changed = await control(`/payment_methods/${card.id}/outcome`, { outcome: "decline" });
    expect(changed).toMatchObject({ status: 200, body: { outcome: "decline", payment_method: { id: card.id } } });
    await expect(offSessionCharge(customer.id, card.id)).rejects.toMatchObject({ code: "card_declined", decline_code: "generic_decline" });
    await control(`/payment_methods/${card.id}/outcome`, { outcome: "insufficient_funds" });
    await expect(offSessionCharge(customer.id, card.id)).rejects.toMatchObject({ decline_code: "insufficient_funds" });
    await control(`/payment_methods/${card.id}/outcome`, { outcome: "authentication_required" });
    await expect(offSessionCharge(customer.id, card.id)).rejects.toMatchObject({ code: "authentication_required" });
    await control(`/payment_methods/${card.id}/outcome`, { outcome: "succeed" });
    expect((await offSessionCharge(customer.id, card.id)).status).toBe("succeeded");
    expect(await control(`/payment_methods/${card.id}/outcome`, { outcome: "explode" })).toMatchObject({
      status: 400,
      body: { error: { param: "outcome" } },
    });
    expect((await control("/payment_methods/pm_missing/outcome", { outcome: "decline" })).status).toBe(404);
  });

  it("holds a customer's webhooks (recorded, not delivered) until released; a held event can be resent", async () => {
    const { customer, card } = await customerWithCard("pm_card_visa");
    const { customer: bystander, card: theirs } = await customerWithCard("pm_card_visa");
    expect(await control("/webhook_hold", { customer: customer.id })).toMatchObject({ status: 200, body: { held: [customer.id] } });
    const eventsBefore = fake.events.length;
    const held = await offSessionCharge(customer.id, card.id);
    await offSessionCharge(bystander.id, theirs.id);
    const arrived = await arrivedEvents();
    expect(arrived.map((event) => (event.data.object as { customer?: string }).customer)).toEqual([
      bystander.id,
      bystander.id,
      bystander.id,
    ]);
    const recorded = fake.events.slice(eventsBefore).filter((sent) => sent.held);
    expect(recorded.map((sent) => sent.event.type)).toEqual(["payment_intent.created", "charge.succeeded", "payment_intent.succeeded"]);
    expect(recorded.every((sent) => sent.deliveries.length === 0)).toBe(true);
    expect(
      (await stripe.events.list({ type: "payment_intent.succeeded", limit: 2 })).data.map((event) => event.data.object),
    ).toContainEqual(expect.objectContaining({ id: held.id }));

    expect(await control("/webhook_release", { customer: customer.id })).toMatchObject({ body: { held: [] } });
    seen = receiver.received.length;
    await offSessionCharge(customer.id, card.id);
    expect((await arrivedEvents()).map((event) => event.type)).toEqual([
      "payment_intent.created",
      "charge.succeeded",
      "payment_intent.succeeded",
    ]);
    seen = receiver.received.length;
    const lost = recorded[2]?.event.id as string;
    await control(`/events/${lost}/resend`, {});
    expect((await arrivedEvents()).map((event) => event.id)).toEqual([lost]);

    await control("/webhook_hold", { customer: bystander.id });
    expect(await control("/webhook_hold", { customer: null })).toMatchObject({ body: { held: [] } });
  });
});
