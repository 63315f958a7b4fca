import { cardByNumber, DEFAULT_CARD, spacedNumber, TEST_CARDS } from "@/tests/fakes/stripe/cards";
import { completeSession } from "@/tests/fakes/stripe/checkout";
import { StripeApiError } from "@/tests/fakes/stripe/stripe-errors";
import { applyPortalAction, type PortalAction } from "@/tests/fakes/stripe/portal";
import type { StripeObject, StripeStore } from "@/tests/fakes/stripe/store";

// The pages Stripe hosts, in plain accessible HTML for browser tests: Checkout at /c/pay/:id (the
// "Pay" button pays with the test card — the form may name another in `card` — sends the events,
// waits for their delivery, then redirects to `success_url`; in setup mode a "Card" choice of test
// cards and "Save card") and the Customer Portal at /p/session/:id (cancel at period end, undo, switch price).

export type PageAnswer = { status: number; html: string; location?: string };

export async function hostedPage(store: StripeStore, method: string, path: string, form: URLSearchParams): Promise<PageAnswer | null> {
  const checkout = /^\/c\/pay\/([^/]+)$/.exec(path);
  if (checkout) return checkoutPage(store, method, decodeURIComponent(checkout[1] ?? ""), form);
  const portal = /^\/p\/session\/([^/]+)$/.exec(path);
  if (portal) return portalPage(store, method, decodeURIComponent(portal[1] ?? ""), form);
  return null;
}

async function checkoutPage(store: StripeStore, method: string, id: string, form: URLSearchParams): Promise<PageAnswer> {
  const session = store.objects.get(id);
  if (!session || session.object !== "checkout.session")
    return {
      status: 404,
      html: page("Not found", "<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>"),
    };
  if (session.status !== "open")
    return {
      status: 400,
      html: page(
        "Checkout unavailable",
        `<h1>This Checkout Session is no longer available</h1><p>Its status is ${escape(session.status)}.</p>`,
      ),
    };
  if (method === "POST") {
    const email = form.get("email") || session.customer_email || "customer@example.com";
    const card = form.get("card") ? cardByNumber(form.get("card") ?? "") : DEFAULT_CARD;
    if (!card)
      return {
        status: 400,
        html: page("Not a test card", `<h1>Your card number is invalid</h1><p>Use one of Stripe's test cards.</p>${backTo(id)}`),
      };
    try {
      completeSession(store, session, { email, card });
    } catch (error) {
      if (!(error instanceof StripeApiError) || error.status !== 402) throw error;
      return {
        status: 402,
        html: page("Card declined", `<h1>Your payment was not completed</h1><p>${escape(error.message)}</p>${backTo(id)}`),
      };
    }
    await store.events.settled();
    const setup = session.mode === "setup";
    if (!session.success_url)
      return setup
        ? { status: 200, html: page("Card saved", "<h1>Your card was saved</h1>") }
        : { status: 200, html: page("Payment complete", "<h1>Thanks for your payment</h1>") };
    return { status: 303, html: "", location: String(session.success_url).replaceAll("{CHECKOUT_SESSION_ID}", session.id) };
  }
  if (session.mode === "setup") return setupForm(store, session);
  const lines = store.lineItems.get(id) ?? [];
  const title = lines.map((line) => `${line.description}${line.quantity > 1 ? ` × ${line.quantity}` : ""}`).join(", ");
  const recurring = lines.find((line) => line.price.recurring)?.price.recurring;
  const amount = `${money(session.amount_total, session.currency)}${recurring ? ` per ${recurring.interval}` : ""}`;
  const email = session.customer ? (store.objects.get(session.customer)?.email ?? "") : (session.customer_email ?? "customer@example.com");
  const body = `<h1>${escape(title)} — ${escape(amount)}</h1>
<p>Test mode: the card 4242 4242 4242 4242 always pays.</p>
<form method="post" action="/c/pay/${escape(id)}">
<label for="email">Email</label> <input id="email" name="email" type="email" value="${escape(email)}" required>
<button type="submit">Pay</button>
</form>
${session.cancel_url ? `<p><a href="${escape(session.cancel_url)}">Back</a></p>` : ""}`;
  return { status: 200, html: page(`Pay ${title}`, body) };
}

function setupForm(store: StripeStore, session: StripeObject): PageAnswer {
  const email = session.customer ? (store.objects.get(session.customer)?.email ?? "") : (session.customer_email ?? "customer@example.com");
  const options = TEST_CARDS.filter((card) => card.offered)
    .map(
      (card) =>
        `<option value="${card.number}"${card === DEFAULT_CARD ? " selected" : ""}>${spacedNumber(card)} — ${escape(card.label)}</option>`,
    )
    .join("\n");
  const body = `<h1>Save a card for future payments</h1>
<p>Test mode: choose one of Stripe's test cards; it is saved for charges made later, when you are away.</p>
<form method="post" action="/c/pay/${escape(session.id)}">
<label for="email">Email</label> <input id="email" name="email" type="email" value="${escape(email)}" required>
<label for="card">Card</label> <select id="card" name="card">
${options}
</select>
<button type="submit">Save card</button>
</form>
${session.cancel_url ? `<p><a href="${escape(session.cancel_url)}">Back</a></p>` : ""}`;
  return { status: 200, html: page("Save a card", body) };
}

function backTo(id: string): string {
  return `<p><a href="/c/pay/${escape(id)}">Try again</a></p>`;
}

async function portalPage(store: StripeStore, method: string, id: string, form: URLSearchParams): Promise<PageAnswer> {
  const portal = store.objects.get(id);
  if (!portal || portal.object !== "billing_portal.session")
    return { status: 404, html: page("Not found", "<h1>This link has expired</h1>") };
  if (method === "POST") {
    try {
      applyPortalAction(store, portal, {
        subscription: form.get("subscription") ?? "",
        action: form.get("action") as PortalAction["action"],
        price: form.get("price") ?? undefined,
      });
    } catch (error) {
      if (error instanceof StripeApiError)
        return {
          status: 400,
          html: page(
            "Not possible",
            `<h1>That change is not possible</h1><p>${escape(error.message)}</p><p><a href="/p/session/${escape(id)}">Back</a></p>`,
          ),
        };
      throw error;
    }
    await store.events.settled();
    return { status: 303, html: "", location: `/p/session/${id}` };
  }
  const customer = store.objects.get(portal.customer);
  const subscriptions = store.all("subscription").filter((subscription) => subscription.customer === portal.customer);
  const prices = store.all("price").filter((price) => price.active && price.type === "recurring");
  const sections = subscriptions.map((subscription) => subscriptionSection(store, id, subscription, prices)).join("\n");
  const body = `<h1>Billing for ${escape(customer?.email ?? portal.customer)}</h1>
${sections || "<p>No subscriptions.</p>"}
${portal.return_url ? `<p><a href="${escape(portal.return_url)}">Return</a></p>` : ""}`;
  return { status: 200, html: page("Customer portal", body) };
}

function subscriptionSection(store: StripeStore, portalId: string, subscription: StripeObject, prices: StripeObject[]): string {
  const item = subscription.items.data[0] as StripeObject | undefined;
  const price = item?.price as StripeObject | undefined;
  const product = price ? store.objects.get(price.product) : undefined;
  const heading = `${product?.name ?? "Subscription"}${price?.lookup_key ? ` (${price.lookup_key})` : ""}`;
  const until = item ? new Date(item.current_period_end * 1000).toISOString().slice(0, 10) : "";
  const state =
    subscription.status === "canceled" ? "Canceled." : subscription.cancel_at_period_end ? `Cancels on ${until}.` : `Renews on ${until}.`;
  const action = (name: string, label: string, extra = "") =>
    `<form method="post" action="/p/session/${escape(portalId)}"><input type="hidden" name="subscription" value="${escape(subscription.id)}"><input type="hidden" name="action" value="${name}">${extra}<button type="submit">${escape(label)}</button></form>`;
  const buttons: string[] = [];
  if (subscription.status !== "canceled") {
    buttons.push(subscription.cancel_at_period_end ? action("renew", "Renew (undo cancel)") : action("cancel", "Cancel at period end"));
    for (const other of prices.filter((each) => each.id !== price?.id && each.currency === subscription.currency)) {
      buttons.push(
        action(
          "switch",
          `Switch to ${other.lookup_key ?? other.nickname ?? other.id}`,
          `<input type="hidden" name="price" value="${escape(other.id)}">`,
        ),
      );
    }
  }
  return `<section aria-label="${escape(heading)}"><h2>${escape(heading)}</h2><p>Status: ${escape(subscription.status)}. ${escape(state)}</p>${buttons.join("\n")}</section>`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} · Stripe fake</title><link rel="icon" href="data:,"></head>
<body><main>
${body}
</main></body></html>`;
}

function money(amount: number, currency: string) {
  const value = (amount / 100).toFixed(2);
  return currency === "usd" ? `$${value}` : `${value} ${currency.toUpperCase()}`;
}

function escape(text: unknown): string {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
