import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { stripeClientFor } from "@/server/billing/stripe-client";
import { db } from "@/server/base/db";
import { createCaller } from "@/tests/support/dashboard-caller";
import { createTestAccount } from "@/tests/support/fixtures";
import { balanceOf } from "@/tests/support/generations";
import { baseUrl } from "@/tests/support/http";
import { until } from "@/tests/support/until";

// Billing tests talk to the Stripe fake the test runner started (STRIPE_API_BASE) with the real
// SDK, post events signed the way Stripe signs them to the app's /api/webhooks/stripe, and wait
// for the stripe-event function (run by the app's executor) to apply them.

export function stripeEnv() {
  const key = process.env.STRIPE_SECRET_KEY;
  const base = process.env.STRIPE_API_BASE;
  const secret = process.env.STRIPE_WEBHOOK_SECRET;
  if (!key || !base || !secret)
    throw new Error("billing tests need STRIPE_SECRET_KEY, STRIPE_API_BASE and STRIPE_WEBHOOK_SECRET (npm test sets them)");
  return { key, base, secret };
}

export const testStripe = () => stripeClientFor(stripeEnv().key, stripeEnv().base);

/** An event as Stripe sends it: a fresh id unless given. */
export function stripeEvent(type: string, object: unknown, options: { id?: string; previousAttributes?: Record<string, unknown> } = {}) {
  return {
    id: options.id ?? `evt_test_${randomBytes(12).toString("hex")}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    data: { object, ...(options.previousAttributes ? { previous_attributes: options.previousAttributes } : {}) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** POSTs a body to the app's Stripe endpoint, signed with the configured secret unless a header is given. */
export async function postStripeWebhook(body: unknown, options: { signature?: string | null; secret?: string } = {}) {
  const payload = typeof body === "string" ? body : JSON.stringify(body);
  const signature =
    options.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? stripeEnv().secret })
      : options.signature;
  const response = await fetch(`${baseUrl()}/api/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "stripe-signature": signature }) },
    body: payload,
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      status: string;
      data?: { duplicate: boolean; event_id: string };
      error?: { code: string; message: string };
    },
  };
}

/** Polls until `done` holds (the app applies events in the background); fails with the last value. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs?: number): Promise<T> {
  const held = await until(
    async () => {
      const value = await read();
      return done(value) ? { value } : null;
    },
    "what the app does with Stripe's events done",
    { timeoutMs, everyMs: 150 },
  );
  return held.value;
}

/** Every stored event applied (or the timeout): for asserting that something did NOT happen. */
export async function allStripeEventsApplied(ids: string[], timeoutMs?: number) {
  await eventually(
    () => db.stripeEvent.findMany({ where: { id: { in: ids } }, select: { id: true, processedAt: true } }),
    (rows) => rows.length === ids.length && rows.every((row) => row.processedAt !== null),
    timeoutMs,
  );
}

export type RecordedStripeRequest = { method: string; path: string; params: Record<string, any>; idempotencyKey: string | null };

/** What the app sent to the fake (its request log), newest last. */
export async function stripeRequests(filter: { path: string; method?: string }): Promise<RecordedStripeRequest[]> {
  const query = new URLSearchParams({ path: filter.path, ...(filter.method ? { method: filter.method } : {}) });
  const response = await fetch(`${stripeEnv().base}/_fake/requests?${query}`);
  return (await response.json()) as RecordedStripeRequest[];
}

/** Completes a Checkout as a customer would: POST the hosted page's form. Returns the redirect. */
export async function payCheckout(url: string) {
  const response = await fetch(url, { method: "POST", redirect: "manual" });
  return { status: response.status, location: response.headers.get("location") };
}

export async function fakeControl(path: string) {
  const response = await fetch(`${stripeEnv().base}/_fake/${path}`, { method: "POST" });
  if (!response.ok) throw new Error(`fake control ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<unknown>;
}

/** A new account on Starter (monthly) bought through the fake's Checkout, its first invoice credited. */
export async function subscribedAccount() {
  const { accountId, userId, email } = await createTestAccount({ plan: "free" });
  const { url } = await createCaller({ userId }).billing.startCheckout({ accountId, plan: "starter", interval: "month" });
  const paid = await payCheckout(url);
  if (paid.status !== 303) throw new Error(`the fake's Checkout answered ${paid.status}`);
  const subscription = await eventually(
    () => db.subscription.findUnique({ where: { accountId } }),
    (row) => row?.status === "active",
  );
  const balance = await eventually(
    () => balanceOf(accountId),
    (value) => value >= 9,
  );
  return { accountId, userId, email, subscriptionId: subscription!.stripeSubscriptionId!, balance };
}
