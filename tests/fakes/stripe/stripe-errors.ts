// Stripe's error bodies (https://docs.stripe.com/api/errors): `{error: {type, code?, param?, message}}`
// with the HTTP status Stripe uses for each. Handlers throw these; the server turns them into answers.

export type StripeErrorBody = { type: string; message: string; code?: string; param?: string; doc_url?: string };

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
    body.doc_url = `https://docs.stripe.com/error-codes/${options.code.replace(/_/g, "-")}`;
  }
  if (options.param) body.param = options.param;
  return new StripeApiError(options.status ?? 400, body);
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
