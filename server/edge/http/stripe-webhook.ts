import "server-only";
import type Stripe from "stripe";
import { db } from "../../base/db";
import { ApiError, invalidRequest } from "../../base/error-table";
import { errorResponse, newRequestId, successResponse } from "./envelope";
import { readJsonBody } from "./read-json-body";
import { env } from "../../base/env";
import { log } from "../../base/log";
import { stripeWebhooks } from "../../billing/stripe-client";
import { sendStripeEventReceived } from "../../billing/events/send-stripe-event-received";

// POST /api/webhooks/stripe. The signature is checked on the raw body with the SDK before anything
// is written (bad or missing: 400, nothing recorded). The event is stored once by its id: a
// duplicate delivery finds the row and is answered 200 without doing anything. Stored events are
// applied by the stripe-event function; the answer does not wait for it.

const MAX_STRIPE_EVENT_BYTES = 1024 * 1024;

export async function receiveStripeWebhook(request: Request): Promise<Response> {
  const requestId = newRequestId();
  try {
    const secret = env().STRIPE_WEBHOOK_SECRET;
    if (!secret)
      throw invalidRequest("Stripe webhooks are not configured on this deployment (no STRIPE_WEBHOOK_SECRET).", [
        { field: "Stripe-Signature", message: "not configured" },
      ]);
    const { raw } = await readJsonBody(request, MAX_STRIPE_EVENT_BYTES);
    const signature = request.headers.get("stripe-signature");
    if (!signature)
      throw invalidRequest("The Stripe-Signature header is missing.", [{ field: "Stripe-Signature", message: "is required" }]);
    let event: Stripe.Event;
    try {
      event = stripeWebhooks.constructEvent(raw, signature, secret);
    } catch {
      throw invalidRequest("The Stripe-Signature header does not match the body, or its timestamp is too old.", [
        { field: "Stripe-Signature", message: "does not verify" },
      ]);
    }
    const stored = await db.stripeEvent.createMany({
      data: [{ id: event.id, type: event.type, payload: JSON.parse(raw) as object }],
      skipDuplicates: true,
    });
    if (stored.count === 0)
      return successResponse({ received: true, duplicate: true, event_id: event.id }, { requestId, message: "Duplicate event ignored" });
    try {
      await sendStripeEventReceived(event.id, 0);
    } catch (error) {
      // Stored: the sweep sends it again (stripe-event-sweep).
      log.warn("stripe webhook: stored but not handed on", { event_id: event.id, error: String(error) });
    }
    return successResponse({ received: true, duplicate: false, event_id: event.id }, { requestId, message: "Event received" });
  } catch (error) {
    const apiError = error instanceof ApiError ? error : new ApiError("ERR5000", "The event could not be stored.");
    if (!(error instanceof ApiError))
      log.error("stripe webhook: failed", { error: error instanceof Error ? error.message : String(error) });
    return errorResponse(apiError, requestId);
  }
}
