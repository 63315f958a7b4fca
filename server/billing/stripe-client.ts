import Stripe from "stripe";
import { env } from "../base/env";
import { invalidRequest } from "../base/error-table";

// The one Stripe client. STRIPE_API_BASE points the SDK at a Stripe-compatible server (the test
// fake, a mock) through its host/port/protocol options; otherwise it talks to api.stripe.com.
// Without STRIPE_SECRET_KEY billing is "not configured": reads still work, purchases refuse.

let cached: { key: string; base: string | undefined; client: Stripe } | undefined;

export function billingConfigured(): boolean {
  return Boolean(env().STRIPE_SECRET_KEY);
}

export function billingNotConfigured() {
  return invalidRequest(
    "Billing is not configured on this deployment (no STRIPE_SECRET_KEY). An operator grants credits with `npm run cli -- credits:add`.",
    [{ field: "billing", message: "not configured" }],
  );
}

function connectionOptions(base: string | undefined): Stripe.StripeConfig {
  if (!base) return {};
  const url = new URL(base);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

/** A client for this key and base address (the CLI, the test runner); the app uses stripeClient(). */
export function stripeClientFor(key: string, base: string | undefined): Stripe {
  return new Stripe(key, { ...connectionOptions(base), maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: "Darkroom" } });
}

export function stripeClient(): Stripe {
  const { STRIPE_SECRET_KEY: key, STRIPE_API_BASE: base } = env();
  if (!key) throw billingNotConfigured();
  if (!cached || cached.key !== key || cached.base !== base) cached = { key, base, client: stripeClientFor(key, base) };
  return cached.client;
}

/** Signature checks need no API key: Stripe's static webhook helpers. */
export const stripeWebhooks = Stripe.webhooks;
