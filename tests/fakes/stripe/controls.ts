import { CARD_OUTCOMES } from "@/tests/fakes/stripe/cards";
import { StripeApiError, invalidRequest, unrecognizedUrl } from "@/tests/fakes/stripe/stripe-errors";
import type { SentEvent } from "@/tests/fakes/stripe/events";
import type { Params } from "@/tests/fakes/stripe/form";
import { openDispute } from "@/tests/fakes/stripe/refunds";
import type { CardOutcome, StripeStore } from "@/tests/fakes/stripe/store";
import { renew } from "@/tests/fakes/stripe/subscriptions";

// Test-only controls under /_fake (no auth, not Stripe's API), usable from another process: move a
// subscription to its next period (paid or declined), open a dispute, change how a saved card
// answers charges, read the recorded requests and events, deliver an event again, set the webhook
// target, hold a customer's webhooks. Actions answer after their webhooks did.

export type RecordedStripeRequest = {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | null;
  headers: Record<string, string>;
};
export type ControlAnswer = { status: number; body: unknown };

export type ControlState = { store: StripeStore; requests: RecordedStripeRequest[]; setWebhookTarget(url: string | null): void };

export async function control(state: ControlState, method: string, url: URL, body: Record<string, unknown>): Promise<ControlAnswer> {
  const { store } = state;
  const path = url.pathname;
  const [, , area, id, action] = path.split("/").map(decodeURIComponent);
  try {
    if (method === "POST" && area === "subscriptions" && (action === "renew" || action === "fail_payment")) {
      const subscription = renew(store, store.find("subscription", id ?? ""), action === "renew" ? "paid" : "declined");
      await store.events.settled();
      return { status: 200, body: subscription };
    }
    if (method === "POST" && area === "charges" && action === "dispute") {
      const dispute = openDispute(store, store.find("charge", id ?? ""));
      await store.events.settled();
      return { status: 200, body: dispute };
    }
    if (method === "POST" && area === "payment_methods" && action === "outcome") {
      const paymentMethod = store.find("payment_method", id ?? "");
      const outcome = body.outcome as CardOutcome;
      if (!CARD_OUTCOMES.includes(outcome))
        throw invalidRequest(`outcome must be one of ${CARD_OUTCOMES.join(", ")}`, { param: "outcome" });
      store.cardOutcomes.set(paymentMethod.id, outcome);
      return { status: 200, body: { payment_method: paymentMethod, outcome } };
    }
    if (path === "/_fake/webhook_hold" || path === "/_fake/webhook_release") {
      const held = store.events.heldCustomers;
      const customer = typeof body.customer === "string" && body.customer ? body.customer : null;
      if (method === "POST" && path === "/_fake/webhook_hold") {
        if (customer) held.add(customer);
        else held.clear();
      } else if (method === "POST") {
        if (customer) held.delete(customer);
        else held.clear();
      } else if (method !== "GET") throw unrecognizedUrl(method, path);
      return { status: 200, body: { held: [...held] } };
    }
    if (method === "GET" && path === "/_fake/requests") {
      const wantedPath = url.searchParams.get("path");
      const wantedMethod = url.searchParams.get("method");
      return {
        status: 200,
        body: state.requests.filter(
          (request) => (!wantedPath || request.path === wantedPath) && (!wantedMethod || request.method === wantedMethod.toUpperCase()),
        ),
      };
    }
    if (method === "POST" && path === "/_fake/reset_requests") {
      state.requests.length = 0;
      return { status: 200, body: { ok: true } };
    }
    if (method === "GET" && path === "/_fake/events") return { status: 200, body: store.events.sent satisfies SentEvent[] };
    if (method === "POST" && area === "events" && action === "resend") {
      const sent = store.events.find(id ?? "");
      if (!sent)
        return {
          status: 404,
          body: { error: { type: "invalid_request_error", code: "resource_missing", param: "id", message: `No such event: '${id}'` } },
        };
      store.events.resend(sent);
      await store.events.settled();
      return { status: 200, body: sent };
    }
    if (method === "POST" && path === "/_fake/webhook_target") {
      state.setWebhookTarget(typeof body.url === "string" && body.url ? body.url : null);
      return { status: 200, body: { url: store.events.target } };
    }
    if (method === "GET" && path === "/_fake/clock") return { status: 200, body: { now: store.now() } };
    throw unrecognizedUrl(method, path);
  } catch (error) {
    if (error instanceof StripeApiError) return { status: error.status, body: { error: error.body } };
    throw error;
  }
}
