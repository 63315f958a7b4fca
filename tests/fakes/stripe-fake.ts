import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StripeApi } from "@/tests/fakes/stripe/api";
import { control, type RecordedStripeRequest } from "@/tests/fakes/stripe/controls";
import { EventLog, type SentEvent } from "@/tests/fakes/stripe/events";
import { decodeStripeForm, type Params } from "@/tests/fakes/stripe/form";
import { hostedPage } from "@/tests/fakes/stripe/hosted-pages";
import { StripeStore, stripeId } from "@/tests/fakes/stripe/store";

// A local Stripe for billing tests, spoken to by the real `stripe` SDK through its host/port/protocol
// options (STRIPE_API_BASE=http://127.0.0.1:<port>): /v1 products, prices, customers, Checkout
// (payment, subscription and setup mode), subscriptions, invoices, payment intents (off-session
// charges of a saved card), setup intents, payment methods, charges, refunds, portal sessions and
// events in Stripe's shapes (API version 2026-10-28.endive); the hosted Checkout and portal pages;
// signed webhooks; and test controls under /_fake. The pieces live in tests/fakes/stripe/.

export type { RecordedStripeRequest } from "@/tests/fakes/stripe/controls";
export type { SentEvent, WebhookAttempt } from "@/tests/fakes/stripe/events";
export type { StripeObject } from "@/tests/fakes/stripe/store";

export type StripeFake = {
  baseUrl: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  /** /v1 calls received, oldest first. */
  requests: RecordedStripeRequest[];
  /** Every event created, oldest first, with its webhook deliveries. */
  events: SentEvent[];
  setWebhookTarget(url: string | null): void;
  /** The fake clock (unix seconds). */
  now(): number;
  /** Resolves once every webhook queued so far was delivered (or failed). */
  webhooksSettled(): Promise<void>;
  close(): Promise<void>;
};

export async function startStripeFake(
  options: { secretKey?: string; webhookSecret?: string; webhookUrl?: string; port?: number } = {},
): Promise<StripeFake> {
  const secretKey = options.secretKey ?? "sk_test_darkroom_fake";
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(24).toString("hex")}`;
  const requests: RecordedStripeRequest[] = [];
  const server = createServer((incoming, response) => {
    void handle(incoming, response).catch((error: unknown) => {
      if (response.headersSent) return void response.end();
      send(response, 500, JSON.stringify({ error: { type: "api_error", message: `The Stripe fake crashed: ${String(error)}` } }), {
        "Content-Type": "application/json",
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;

  const events = new EventLog(webhookSecret, () => stripeId("evt_"));
  const store = new StripeStore(baseUrl, events);
  events.target = options.webhookUrl ?? null;
  const api = new StripeApi(store, secretKey);
  const setWebhookTarget = (url: string | null) => {
    events.target = url;
  };

  async function handle(incoming: IncomingMessage, response: ServerResponse) {
    const url = new URL(incoming.url ?? "/", baseUrl);
    const method = incoming.method ?? "GET";
    const rawBody = await readBody(incoming);
    if (url.pathname.startsWith("/v1/")) {
      const params: Params = { ...decodeStripeForm(url.search.slice(1)), ...bodyParams(incoming, rawBody) };
      const idempotencyKey = headerValue(incoming, "idempotency-key") ?? null;
      requests.push({ method, path: url.pathname, params, idempotencyKey, headers: flatHeaders(incoming) });
      const answer = api.answer({ method, path: url.pathname, params, headers: incoming.headers, idempotencyKey });
      return send(response, answer.status, JSON.stringify(answer.body, null, 2), { "Content-Type": "application/json", ...answer.headers });
    }
    if (url.pathname.startsWith("/_fake/")) {
      const body = parseControlBody(incoming, rawBody);
      const answer = await control({ store, requests, setWebhookTarget }, method, url, body);
      return send(response, answer.status, JSON.stringify(answer.body), { "Content-Type": "application/json" });
    }
    const page = await hostedPage(store, method, url.pathname, new URLSearchParams(rawBody));
    if (page)
      return send(response, page.status, page.html, {
        "Content-Type": "text/html; charset=utf-8",
        ...(page.location ? { Location: page.location } : {}),
      });
    send(
      response,
      404,
      JSON.stringify({ error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${url.pathname}).` } }),
      { "Content-Type": "application/json" },
    );
  }

  return {
    baseUrl,
    port,
    secretKey,
    webhookSecret,
    requests,
    events: events.sent,
    setWebhookTarget,
    now: () => store.now(),
    webhooksSettled: () => events.settled(),
    async close() {
      await events.settled();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function bodyParams(incoming: IncomingMessage, rawBody: string): Params {
  if (!rawBody) return {};
  if (headerValue(incoming, "content-type")?.includes("application/json")) return JSON.parse(rawBody) as Params;
  return decodeStripeForm(rawBody);
}

function parseControlBody(incoming: IncomingMessage, rawBody: string): Record<string, unknown> {
  if (!rawBody) return {};
  try {
    return headerValue(incoming, "content-type")?.includes("json")
      ? (JSON.parse(rawBody) as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(rawBody));
  } catch {
    return {};
  }
}

function send(response: ServerResponse, status: number, text: string, headers: Record<string, string>) {
  response.writeHead(status, { ...headers, "Content-Length": Buffer.byteLength(text) });
  response.end(text);
}

function headerValue(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function flatHeaders(incoming: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(incoming.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : (value ?? "")]),
  );
}

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
