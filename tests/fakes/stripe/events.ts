import { createHmac } from "node:crypto";
import type { EventCause, StripeObject } from "@/tests/fakes/stripe/store";

// Events as Stripe writes them (`evt_…`, `api_version`, `data.object`, `data.previous_attributes`,
// `request`), and their webhook deliveries: POSTed one at a time in creation order to the target,
// signed `Stripe-Signature: t=<unix>,v1=<HMAC-SHA256 of "t.body">` like Stripe's own endpoints.
// Events of a held customer (a test control) are recorded but not delivered: a webhook that never came.

export const API_VERSION = "2026-10-28.endive";

export type WebhookAttempt = { url: string; status: number | null; error: string | null; at: number };
/** `held`: recorded while its customer's webhooks were held, so not delivered (unless resent). */
export type SentEvent = { event: StripeObject; deliveries: WebhookAttempt[]; held?: boolean };

export class EventLog {
  readonly sent: SentEvent[] = [];
  target: string | null = null;
  /** Customers whose events are recorded but not delivered. */
  readonly heldCustomers = new Set<string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly webhookSecret: string,
    private readonly newId: () => string,
  ) {}

  emit(type: string, object: StripeObject, created: number, cause: EventCause, previousAttributes?: StripeObject): StripeObject {
    const event: StripeObject = {
      id: this.newId(),
      object: "event",
      api_version: API_VERSION,
      created,
      data: previousAttributes
        ? { object: structuredClone(object), previous_attributes: previousAttributes }
        : { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: this.target ? 1 : 0,
      request: { ...cause },
      type,
    };
    const sent: SentEvent = { event, deliveries: [] };
    if (this.isHeld(object)) sent.held = true;
    this.sent.push(sent);
    if (this.target && !sent.held) this.deliver(sent, this.target);
    return event;
  }

  /** The event is about a held customer: its `data.object.customer`, or the customer itself. */
  private isHeld(object: StripeObject): boolean {
    const customer = object.object === "customer" ? object.id : object.customer;
    return typeof customer === "string" && this.heldCustomers.has(customer);
  }

  find(id: string): SentEvent | undefined {
    return this.sent.find((sent) => sent.event.id === id);
  }

  /** Queues another delivery of an event already sent (Stripe may deliver an event more than once). */
  resend(sent: SentEvent) {
    if (this.target) this.deliver(sent, this.target);
  }

  /** Resolves once every delivery queued so far has been answered (or failed). */
  settled(): Promise<void> {
    return this.queue;
  }

  private deliver(sent: SentEvent, url: string) {
    this.queue = this.queue.then(async () => {
      const body = JSON.stringify(sent.event, null, 2);
      const attempt: WebhookAttempt = { url, status: null, error: null, at: Math.floor(Date.now() / 1000) };
      sent.deliveries.push(attempt);
      try {
        const answer = await fetch(url, {
          method: "POST",
          headers: {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
            "Stripe-Signature": this.signature(body),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        attempt.status = answer.status;
        await answer.arrayBuffer();
        if (answer.ok) sent.event.pending_webhooks = 0;
      } catch (error) {
        attempt.error = String(error);
      }
    });
  }

  /** The header `stripe.webhooks.generateTestHeaderString({payload, secret})` produces. */
  signature(payload: string, timestamp = Math.floor(Date.now() / 1000)): string {
    const digest = createHmac("sha256", this.webhookSecret).update(`${timestamp}.${payload}`).digest("hex");
    return `t=${timestamp},v1=${digest}`;
  }
}
