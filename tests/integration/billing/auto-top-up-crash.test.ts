import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeFake, type StripeFake } from "@/tests/fakes/stripe-fake";
import { query } from "@/tests/reliability/own-server-drill";
import { ownServer } from "@/tests/support/own-server";
import { until } from "@/tests/support/until";

// A server SIGKILLed between the charge and its webhook: the top-up's PaymentIntent succeeded at
// Stripe, the webhook could not reach the dead server, and after the restart Stripe's retry (and
// the sweep that asks Stripe) add the credits exactly once. The server is one of the suite's own
// (its embedded PostgreSQL dies with it), with a Stripe fake of its own; auto top-up is set with
// the CLI, and the card saved on the fake's Checkout page, as an operator and an owner would.

let stripe: StripeFake;
/** Filled once the fake listens: the server reads its options' env at every start. */
const serverEnv: Record<string, string> = {};
const server = ownServer("auto-top-up-crash", { env: serverEnv });

beforeAll(async () => {
  stripe = await startStripeFake();
  Object.assign(serverEnv, {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_API_BASE: stripe.baseUrl,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
  });
  await server.start();
  stripe.setWebhookTarget(`${server.baseUrl()}/api/webhooks/stripe`);
}, 180_000);

afterAll(async () => {
  await server.dispose();
  await stripe?.close();
}, 60_000);

async function control(path: string, body: unknown) {
  const response = await fetch(`${stripe.baseUrl}/_fake/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

const metadataOf = (params: Record<string, unknown>) => (params.metadata ?? {}) as Record<string, string>;

const rows = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) => (await query<T>(server, sql, params)) ?? [];

async function waitFor<T>(read: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const held = await until(
    async () => {
      const value = await read();
      return value ? { value } : null;
    },
    what,
    { timeoutMs, everyMs: 250 },
  );
  return held.value;
}

describe("auto top-up across a crash", () => {
  it("SIGKILL after the charge, before its webhook: the credits are added once after the restart", async () => {
    const accountId = server.demoAccountId();
    expect((await server.cli(["stripe:setup"])).code).toBe(0);
    const today = new Date().toISOString();
    expect(
      (await server.cli(["account:plan", "--account", accountId, "--plan", "starter", "--interval", "month", "--period-start", today]))
        .code,
    ).toBe(0);
    const [{ balance } = { balance: "0" }] = await rows<{ balance: string }>(
      "SELECT credit_balance::text AS balance FROM account WHERE id = $1",
      [accountId],
    );

    // The operator's CLI sets it; without a card it answers the Checkout that saves one.
    const set = await server.cli(["auto-top-up:set", "--account", accountId, "--below", balance, "--pack", "10", "--monthly-cap", "50"]);
    expect(set.code, JSON.stringify(set.body)).toBe(0);
    const setupUrl = String(set.body.card_setup_url);
    expect(setupUrl).toMatch(/\/c\/pay\//);
    const saved = await fetch(setupUrl, { method: "POST", redirect: "manual", body: new URLSearchParams({ email: "owner@example.com" }) });
    expect(saved.status).toBe(303);
    await waitFor(
      async () => (await rows<{ enabled: boolean }>("SELECT enabled FROM auto_top_up WHERE account_id = $1", [accountId]))[0]?.enabled,
      "the card saved and auto top-up on",
    );
    const shown = await server.cli(["auto-top-up:show", "--account", accountId]);
    expect(shown.body.auto_top_up).toMatchObject({ enabled: true, pack: 10, monthly_cap: 50, card: { last4: "4242" } });
    const [{ customer } = { customer: "" }] = await rows<{ customer: string }>(
      "SELECT stripe_customer_id AS customer FROM account WHERE id = $1",
      [accountId],
    );

    // Stripe's webhooks for this customer are held: the charge succeeds, its event does not arrive.
    await control("webhook_hold", { customer });
    const created = await fetch(`${server.baseUrl()}/v1/generate/image/darkroom/lumen-image`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.demoKey()}`, "content-type": "application/json" },
      body: JSON.stringify({ generation_prompt: "a lighthouse at dusk" }),
    });
    expect(created.status, await created.clone().text()).toBe(202);
    const charge = await waitFor(
      async () =>
        stripe.requests.find(
          (request) =>
            request.method === "POST" && request.path === "/v1/payment_intents" && metadataOf(request.params).purpose === "auto_top_up",
        ),
      "the top-up's PaymentIntent",
    );
    const orderId = String(metadataOf(charge.params).order_id);
    await server.crash();

    const succeeded = await waitFor(
      async () =>
        stripe.events.find(
          (sent) => sent.event.type === "payment_intent.succeeded" && sent.event.data.object.metadata?.order_id === orderId,
        ),
      "Stripe's payment_intent.succeeded",
    );
    const paymentIntentId = String(succeeded.event.data.object.id);
    await control("webhook_release", { customer });
    // Stripe retries: the first retry finds the server down.
    await fetch(`${stripe.baseUrl}/_fake/events/${succeeded.event.id}/resend`, { method: "POST" });
    expect(succeeded.deliveries.at(-1)?.status ?? null).toBeNull();

    await server.start();
    stripe.setWebhookTarget(`${server.baseUrl()}/api/webhooks/stripe`);
    await fetch(`${stripe.baseUrl}/_fake/events/${succeeded.event.id}/resend`, { method: "POST" });
    await fetch(`${stripe.baseUrl}/_fake/events/${succeeded.event.id}/resend`, { method: "POST" });
    await waitFor(
      async () =>
        (await rows<{ status: string }>(`SELECT status::text AS status FROM "order" WHERE id = $1`, [orderId]))[0]?.status === "fulfilled",
      "the order fulfilled after the restart",
      120_000,
    );
    const adds = await rows<{ count: string }>("SELECT count(*)::text AS count FROM ledger_entry WHERE type = 'add' AND source_key = $1", [
      `payment_intent:${paymentIntentId}`,
    ]);
    expect(adds[0]?.count).toBe("1");
    const orders = await rows<{ count: string }>(
      `SELECT count(*)::text AS count FROM "order" WHERE account_id = $1 AND kind = 'auto_top_up'`,
      [accountId],
    );
    expect(orders[0]?.count).toBe("1");
    const intents = stripe.requests.filter((request) => request.path === "/v1/payment_intents" && request.method === "POST");
    // Every charge call (the first, and any after the restart) carried the order's key: one payment.
    expect(new Set(intents.map((request) => request.idempotencyKey))).toEqual(new Set([`darkroom-top-up-${orderId}`]));
    expect(stripe.events.filter((sent) => sent.event.type === "payment_intent.succeeded")).toHaveLength(1);
  }, 300_000);
});
