import { randomBytes } from "node:crypto";
import { noSuch } from "@/tests/fakes/stripe/stripe-errors";
import type { EventLog } from "@/tests/fakes/stripe/events";

// Everything the fake Stripe account holds: every object by id (ids carry Stripe's prefixes, so one
// map serves lookups and `expand`), the data Stripe keeps beside objects (a session's line items, an
// invoice's payments, how a saved test card behaves), the fake clock, and the event log.

/** A Stripe API object as JSON: references to other objects are ids, as Stripe answers them unexpanded. */
export type StripeObject = Record<string, any>;

/** What caused an event: the API request (id and Idempotency-Key), or nothing for automatic and dashboard-like actions. */
export type EventCause = { id: string | null; idempotency_key: string | null };

/** What a checkout session was asked to put on the subscription, payment intent or setup intent it creates. */
export type CheckoutAsk = {
  subscriptionMetadata: Record<string, string>;
  trialDays?: number;
  paymentMetadata: Record<string, string>;
  setupMetadata?: Record<string, string>;
  setupDescription?: string | null;
};

/** How a test card answers a charge: the card it was made from decides, until the test control changes it. */
export type CardOutcome = "succeed" | "decline" | "insufficient_funds" | "authentication_required";

export class StripeStore {
  readonly objects = new Map<string, StripeObject>();
  readonly lineItems = new Map<string, StripeObject[]>();
  readonly invoicePayments = new Map<string, StripeObject[]>();
  readonly checkoutAsks = new Map<string, CheckoutAsk>();
  /** By payment method id. */
  readonly cardOutcomes = new Map<string, CardOutcome>();
  /** Payment methods that may not be used again: used once without a customer, or detached. */
  readonly spentPaymentMethods = new Set<string>();
  /** Counts objects stored and events recorded: a request that moved it had started executing (idempotency). */
  writes = 0;
  /** Set by the server around each API call, so events record the request that caused them. */
  cause: EventCause = { id: null, idempotency_key: null };
  private clockOffset = 0;

  constructor(
    readonly baseUrl: string,
    readonly events: EventLog,
  ) {}

  /** The fake clock in unix seconds: real time, plus whatever the test controls advanced it by. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.clockOffset;
  }

  advanceTo(seconds: number) {
    if (seconds > this.now()) this.clockOffset += seconds - this.now();
  }

  newId(prefix: string, length = 24): string {
    return stripeId(prefix, length);
  }

  put<T extends StripeObject>(object: T): T {
    this.writes++;
    this.objects.set(object.id as string, object);
    return object;
  }

  /** The object with that id and type, or Stripe's 404 `No such <kind>: '<id>'`. */
  find(type: string, id: string, param = "id"): StripeObject {
    const object = this.objects.get(id);
    if (!object || object.object !== type || object.deleted) throw noSuch(kindWord(type), id, param);
    return object;
  }

  /** Records an event (and queues its webhook) at the fake clock's time, caused by the current request, if any. */
  emit(type: string, object: StripeObject, previousAttributes?: StripeObject): StripeObject {
    this.writes++;
    return this.events.emit(type, object, this.now(), this.cause, previousAttributes);
  }

  /** Objects of one type, newest first, as Stripe lists them. */
  all(type: string): StripeObject[] {
    return [...this.objects.values()].filter((object) => object.object === type && !object.deleted).reverse();
  }
}

/** `prefix` + random letters and digits, like `price_1QxYz…`. */
export function stripeId(prefix: string, length = 24): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return prefix + Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join("");
}

function kindWord(type: string): string {
  const words: Record<string, string> = {
    "checkout.session": "checkout.session",
    subscription_item: "subscription item",
    payment_intent: "payment_intent",
    payment_method: "PaymentMethod",
    setup_intent: "setupintent",
    "billing_portal.session": "billing portal session",
  };
  return words[type] ?? type;
}
