// Money, plan names and period dates as the billing page writes them. Dates are UTC (as Stripe
// bills), so the server's first paint and the browser agree on every character.

export function formatMoney(amountCents: number, currency: string): string {
  const whole = amountCents % 100 === 0;
  return new Intl.NumberFormat("en", {
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amountCents / 100);
}

export function planLabel(plan: string): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}

export function formatBillingDate(date: string | Date): string {
  return new Date(date).toLocaleDateString("en", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}
