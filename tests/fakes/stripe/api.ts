import type { IncomingHttpHeaders } from "node:http";
import { catalogRoutes } from "@/tests/fakes/stripe/catalog";
import { checkoutRoutes } from "@/tests/fakes/stripe/checkout";
import { customerRoutes } from "@/tests/fakes/stripe/customers";
import { StripeApiError, invalidRequest, unrecognizedUrl, type StripeErrorBody } from "@/tests/fakes/stripe/stripe-errors";
import { eventRoutes } from "@/tests/fakes/stripe/event-routes";
import { API_VERSION } from "@/tests/fakes/stripe/events";
import { expandPaths } from "@/tests/fakes/stripe/expand";
import type { Params } from "@/tests/fakes/stripe/form";
import { invoiceRoutes } from "@/tests/fakes/stripe/invoices";
import { stringList } from "@/tests/fakes/stripe/params";
import { paymentIntentRoutes } from "@/tests/fakes/stripe/payment-intents";
import { paymentMethodRoutes } from "@/tests/fakes/stripe/payment-methods";
import { paymentRoutes } from "@/tests/fakes/stripe/payments";
import { portalRoutes } from "@/tests/fakes/stripe/portal";
import { refundRoutes } from "@/tests/fakes/stripe/refunds";
import { matchRoute } from "@/tests/fakes/stripe/router";
import { setupIntentRoutes } from "@/tests/fakes/stripe/setup-intents";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";
import { subscriptionRoutes } from "@/tests/fakes/stripe/subscription-routes";

// One /v1 call, in Stripe's order: Bearer (or Basic) auth → Idempotency-Key replay → route →
// handler → `expand[]` → JSON answer with `Request-Id`; errors in Stripe's `{error: {...}}` shape.
// Like Stripe, a POST with an Idempotency-Key saves its answer (status and body) once the endpoint
// started executing — a success, or an error after the handler stored an object or recorded an
// event (a 402 card error) — and replays it; auth and parameter errors raised before any of that,
// unknown routes and 5xx are not saved, so a corrected retry under the same key runs.

const routes = [
  ...catalogRoutes,
  ...customerRoutes,
  ...checkoutRoutes,
  ...subscriptionRoutes,
  ...invoiceRoutes,
  ...paymentRoutes,
  ...paymentIntentRoutes,
  ...paymentMethodRoutes,
  ...setupIntentRoutes,
  ...refundRoutes,
  ...portalRoutes,
  ...eventRoutes,
];

export type ApiCall = { method: string; path: string; params: Params; headers: IncomingHttpHeaders; idempotencyKey: string | null };
export type ApiAnswer = { status: number; body: unknown; headers: Record<string, string> };

type StoredAnswer = { endpoint: string; params: string; status: number; body: unknown; requestId: string };

export class StripeApi {
  private readonly idempotent = new Map<string, StoredAnswer>();

  constructor(
    private readonly store: StripeStore,
    private readonly secretKey: string,
  ) {}

  answer(call: ApiCall): ApiAnswer {
    const requestId = this.store.newId("req_", 14);
    const headers: Record<string, string> = {
      "Request-Id": requestId,
      "Stripe-Version": header(call.headers, "stripe-version") ?? API_VERSION,
    };
    if (call.idempotencyKey) headers["Idempotency-Key"] = call.idempotencyKey;
    const failure = (error: StripeApiError) => ({
      status: error.status,
      body: { error: { ...error.body, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } },
      headers,
    });
    const endpoint = `${call.method} ${call.path}`;
    const params = JSON.stringify(call.params);
    const key = call.method === "POST" ? call.idempotencyKey : null;
    try {
      this.authenticate(header(call.headers, "authorization"));
      const stored = key ? this.idempotent.get(key) : undefined;
      if (key && stored) {
        if (stored.endpoint !== endpoint) {
          throw idempotencyError(
            `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${stored.endpoint}' vs '${endpoint}'). Try using a key other than '${key}' if you meant to execute a different request.`,
          );
        }
        if (stored.params !== params)
          throw idempotencyError(
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          );
        return {
          status: stored.status,
          body: stored.body,
          headers: { ...headers, "Idempotent-Replayed": "true", "Original-Request": stored.requestId },
        };
      }
    } catch (error) {
      return failure(asApiError(error));
    }
    const writesBefore = this.store.writes;
    let answer: ApiAnswer;
    try {
      answer = { status: 200, body: this.dispatch(call, { id: requestId, idempotency_key: key }), headers };
    } catch (error) {
      answer = failure(asApiError(error));
    }
    const executed = answer.status < 400 || this.store.writes !== writesBefore;
    if (key && answer.status < 500 && executed)
      this.idempotent.set(key, { endpoint, params, status: answer.status, body: answer.body, requestId });
    return answer;
  }

  private authenticate(authorization: string | undefined) {
    const bearer = /^Bearer (.+)$/i.exec(authorization ?? "")?.[1];
    const basic = /^Basic (.+)$/i.exec(authorization ?? "")?.[1];
    const key = bearer ?? (basic ? Buffer.from(basic, "base64").toString("utf8").split(":")[0] : undefined);
    if (!key) {
      throw new StripeApiError(401, {
        type: "invalid_request_error",
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      });
    }
    if (key !== this.secretKey) {
      const masked = key.length > 12 ? `${key.slice(0, 8)}${"*".repeat(key.length - 12)}${key.slice(-4)}` : key;
      throw new StripeApiError(401, { type: "invalid_request_error", message: `Invalid API Key provided: ${masked}` });
    }
  }

  private dispatch(call: ApiCall, cause: StripeStore["cause"]): StripeObject {
    const found = matchRoute(routes, call.method, call.path);
    if (!found) throw unrecognizedUrl(call.method, call.path);
    // Handlers are synchronous, so the cause cannot leak into another request's events.
    this.store.cause = cause;
    try {
      const result = found.route.handle({ store: this.store, params: call.params, id: found.ids.id ?? "", path: call.path });
      return expandPaths(this.store, result, stringList(call.params, "expand") ?? []);
    } finally {
      this.store.cause = { id: null, idempotency_key: null };
    }
  }
}

function asApiError(error: unknown): StripeApiError {
  if (error instanceof StripeApiError) return error;
  return new StripeApiError(500, { type: "api_error", message: `The Stripe fake crashed: ${String(error)}` });
}

function idempotencyError(message: string) {
  const error = invalidRequest(message);
  (error.body as StripeErrorBody).type = "idempotency_error";
  return error;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
