import { createHash } from "node:crypto";
import type { CardOutcome, StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// Stripe's test cards (https://docs.stripe.com/testing): the numbers the hosted pages offer, the
// test-mode magic payment method ids (`pm_card_visa`…) that stand for them, and the card
// PaymentMethod (`pm_…`) a saved card becomes, whose charges answer as its card does.

export type TestCard = { number: string; label: string; outcome: CardOutcome; magicId: string; offered: boolean };

export const TEST_CARDS: TestCard[] = [
  { number: "4242424242424242", label: "always succeeds", outcome: "succeed", magicId: "pm_card_visa", offered: true },
  {
    number: "4000000000000002",
    label: "declines (card_declined / generic_decline)",
    outcome: "decline",
    magicId: "pm_card_chargeDeclined",
    offered: true,
  },
  {
    number: "4000000000009995",
    label: "declines (insufficient_funds)",
    outcome: "insufficient_funds",
    magicId: "pm_card_chargeDeclinedInsufficientFunds",
    offered: true,
  },
  {
    number: "4000002760003184",
    label: "requires authentication",
    outcome: "authentication_required",
    magicId: "pm_card_authenticationRequired",
    offered: true,
  },
  // Stripe's card that attaches fine and then declines every charge.
  {
    number: "4000000000000341",
    label: "attaches, then declines",
    outcome: "decline",
    magicId: "pm_card_chargeCustomerFail",
    offered: false,
  },
];

export const DEFAULT_CARD = TEST_CARDS[0] as TestCard;

export const CARD_OUTCOMES: CardOutcome[] = ["succeed", "decline", "insufficient_funds", "authentication_required"];

export function cardByNumber(number: string): TestCard | undefined {
  const digits = number.replace(/[\s-]/g, "");
  return TEST_CARDS.find((card) => card.number === digits);
}

export function cardByMagicId(id: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.magicId === id);
}

/** "4242 4242 4242 4242" */
export function spacedNumber(card: TestCard): string {
  return card.number.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** A card payment method as Stripe stores one (visa, 12/2034, US credit), attached to `customer` when given. */
export function createCardPaymentMethod(
  store: StripeStore,
  card: TestCard,
  options: { customer: string | null; email: string | null; allowRedisplay?: "always" | "limited" | "unspecified" },
): StripeObject {
  const paymentMethod = store.put({
    id: store.newId("pm_"),
    object: "payment_method",
    allow_redisplay: options.allowRedisplay ?? "unspecified",
    billing_details: {
      address: { city: null, country: "US", line1: null, line2: null, postal_code: "94107", state: null },
      email: options.email,
      name: null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: "visa",
      checks: { address_line1_check: null, address_postal_code_check: "pass", cvc_check: "pass" },
      country: "US",
      display_brand: "visa",
      exp_month: 12,
      exp_year: 2034,
      fingerprint: fingerprint(card.number),
      funding: "credit",
      generated_from: null,
      last4: card.number.slice(-4),
      networks: { available: ["visa"], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: store.now(),
    customer: options.customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  });
  store.cardOutcomes.set(paymentMethod.id, card.outcome);
  return paymentMethod;
}

/** What a charge on this payment method does now. */
export function outcomeOf(store: StripeStore, paymentMethod: StripeObject): CardOutcome {
  return store.cardOutcomes.get(paymentMethod.id) ?? "succeed";
}

/** The card as a charge's `payment_method_details` show it. */
export function chargeCardDetails(paymentMethod: StripeObject): StripeObject {
  const card = paymentMethod.card as StripeObject;
  return {
    card: {
      amount_authorized: null,
      authorization_code: null,
      brand: card.brand,
      checks: structuredClone(card.checks),
      country: card.country,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
      fingerprint: card.fingerprint,
      funding: card.funding,
      last4: card.last4,
      mandate: null,
      network: "visa",
      network_token: { used: false },
      network_transaction_id: null,
      regulated_status: card.regulated_status,
      three_d_secure: null,
      wallet: null,
    },
    type: "card",
  };
}

/** The same card number always has the same fingerprint, as in one Stripe account. */
function fingerprint(number: string): string {
  return createHash("sha256")
    .update(`darkroom-fake:${number}`)
    .digest("base64")
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 16);
}
