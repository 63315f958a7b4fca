import type { StripeObject } from "@/tests/fakes/stripe/store";

// Stripe's error bodies (https://docs.stripe.com/api/errors): `{error: {type, code?, param?, message}}`
// with the HTTP status Stripe uses for each (a card error is a 402 carrying `decline_code`, `charge`
// and the failed `payment_intent` and `payment_method`). Handlers throw these; the server answers them.

export type StripeErrorBody = {
  type: string;
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: StripeObject;
  payment_method?: StripeObject;
};

export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }
}

export function invalidRequest(message: string, options: { param?: string; code?: string; status?: number } = {}) {
  const body: StripeErrorBody = { type: "invalid_request_error", message };
  if (options.code) {
    body.code = options.code;
    body.doc_url = docUrl(options.code);
  }
  if (options.param) body.param = options.param;
  return new StripeApiError(options.status ?? 400, body);
}

export function docUrl(code: string): string {
  return `https://docs.stripe.com/error-codes/${code.replace(/_/g, "-")}`;
}

/** A 402 `card_error` as a failed confirmation answers it; `details` carries the charge, payment intent and payment method. */
export function cardError(
  code: string,
  message: string,
  details: { decline_code?: string; charge?: string; payment_intent?: StripeObject; payment_method?: StripeObject },
) {
  const body: StripeErrorBody = { type: "card_error", code, message, doc_url: docUrl(code) };
  if (details.charge) body.charge = details.charge;
  if (details.decline_code) body.decline_code = details.decline_code;
  if (details.payment_intent) body.payment_intent = details.payment_intent;
  if (details.payment_method) body.payment_method = details.payment_method;
  return new StripeApiError(402, body);
}

export function missingParam(param: string) {
  return invalidRequest(`Missing required param: ${param}.`, { param, code: "parameter_missing" });
}

/** `No such price: 'price_x'`, the 404 every retrieve of an unknown id answers. */
export function noSuch(kind: string, id: string, param = "id") {
  return invalidRequest(`No such ${kind}: '${id}'`, { param, code: "resource_missing", status: 404 });
}

export function unrecognizedUrl(method: string, path: string) {
  return invalidRequest(
    `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    { status: 404 },
  );
}
