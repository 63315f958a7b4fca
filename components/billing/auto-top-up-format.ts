import type { AutoTopUpCard, AutoTopUpView } from "./billing-types";

// How the auto top-up card and the orders list write the setting's facts: USD amounts with cents
// ("$25.00", the cap is a budget), the saved card ("Visa •••• 4242", "12/34"), the setting's state,
// and the reasons the server records in codes (a pause, a top-up not attempted).

export function formatUsd(amount: number, currency = "usd"): string {
  return new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase(), minimumFractionDigits: 2 }).format(amount);
}

const brands: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  link: "Link",
};

export function cardBrandLabel(brand: string): string {
  return brands[brand.toLowerCase()] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

/** The short mark on the card chip: "VISA", "MC", "AMEX". */
export function cardBrandMark(brand: string): string {
  const key = brand.toLowerCase();
  if (key === "mastercard") return "MC";
  if (key === "amex") return "AMEX";
  return (brands[key] ?? brand).slice(0, 4).toUpperCase();
}

/** "MM/YY", or null when Stripe gave no expiry. */
export function cardExpiry(card: AutoTopUpCard): string | null {
  if (!card.exp_month || !card.exp_year) return null;
  return `${String(card.exp_month).padStart(2, "0")}/${String(card.exp_year % 100).padStart(2, "0")}`;
}

/** Whether the card's expiry month is over (UTC), or ends this month. */
export function cardExpiryState(card: AutoTopUpCard, now = new Date()): "expired" | "expiring" | "valid" {
  if (!card.exp_month || !card.exp_year) return "valid";
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expires = card.exp_year * 12 + (card.exp_month - 1);
  return expires < current ? "expired" : expires === current ? "expiring" : "valid";
}

export type AutoTopUpState = "on" | "off" | "paused";

export function autoTopUpState(view: AutoTopUpView): AutoTopUpState {
  if (view.paused) return "paused";
  return view.enabled ? "on" : "off";
}

/** Why the setting is paused, as a clause: "your bank asked you to confirm the last top-up". */
export function pauseReasonText(reason: string | null): string {
  if (!reason) return "the last top-ups did not go through";
  if (reason === "authentication_required") return "your bank asked you to confirm the last top-up";
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}

const skipped: Record<string, string> = {
  monthly_cap: "Would have passed the monthly cap; no card was charged.",
  subscription_inactive: "Needs an active subscription; no card was charged.",
  no_card: "No card was saved; nothing was charged.",
  turned_off: "Auto top-up was off or paused; nothing was charged.",
};

/** An order's failure reason for people: the skip codes spelled out, Stripe's decline messages as they are. */
export function orderFailureText(reason: string | null): string | null {
  if (!reason) return null;
  return skipped[reason] ?? reason;
}
