import Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { createTestAccount } from "@/tests/support/fixtures";
import { allStripeEventsApplied, postStripeWebhook, stripeEnv, stripeEvent, testStripe } from "@/tests/support/stripe";

// POST /api/webhooks/stripe: the signature is checked on the raw body before anything is stored;
// an event id is stored once, and a duplicate is answered 200 and ignored.

afterAll(() => disconnectDb());

async function customerEvent() {
  const { accountId } = await createTestAccount({ plan: "free" });
  const customer = await testStripe().customers.create({ email: "route@test.darkroom.local", metadata: { account_id: accountId } });
  return stripeEvent("customer.created", customer);
}

describe("POST /api/webhooks/stripe", () => {
  it("refuses a body signed with another secret: 400 ERR1001, nothing recorded", async () => {
    const event = await customerEvent();
    const reply = await postStripeWebhook(event, { secret: "whsec_not_the_configured_one" });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe("ERR1001");
    expect(await db.stripeEvent.findUnique({ where: { id: event.id } })).toBeNull();
  });

  it("refuses a missing signature and a body changed after signing", async () => {
    const event = await customerEvent();
    const missing = await postStripeWebhook(event, { signature: null });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toMatch(/Stripe-Signature header is missing/);

    const signature = Stripe.webhooks.generateTestHeaderString({ payload: JSON.stringify(event), secret: stripeEnv().secret });
    const tampered = await postStripeWebhook({ ...event, type: "invoice.paid" }, { signature });
    expect(tampered.status).toBe(400);
    expect(tampered.body.error?.code).toBe("ERR1001");
    expect(await db.stripeEvent.findUnique({ where: { id: event.id } })).toBeNull();
  });

  it("refuses a signature older than Stripe's 300 s tolerance", async () => {
    const event = await customerEvent();
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: stripeEnv().secret,
      timestamp: Math.floor(Date.now() / 1000) - 600,
    });
    const reply = await postStripeWebhook(payload, { signature });
    expect(reply.status).toBe(400);
    expect(await db.stripeEvent.findUnique({ where: { id: event.id } })).toBeNull();
  });

  it("stores an event once; the duplicate is answered 200 and ignored", async () => {
    const event = await customerEvent();
    const first = await postStripeWebhook(event);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ duplicate: false, event_id: event.id });
    const second = await postStripeWebhook(event);
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ duplicate: true, event_id: event.id });
    await allStripeEventsApplied([event.id]);
    const rows = await db.stripeEvent.findMany({ where: { id: event.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.type).toBe("customer.created");
  });

  it("refuses a body that is not JSON", async () => {
    const reply = await postStripeWebhook("not json", { signature: "t=1,v1=00" });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe("ERR1001");
  });
});
