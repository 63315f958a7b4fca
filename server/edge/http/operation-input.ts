import "server-only";
import { parseQuery } from "../contract/query";
import type { AnyOperation } from "./define-operation";
import { invalidRequest } from "../../base/error-table";
import { fieldErrorsFromIssues } from "../../base/field-errors";
import { readCancelAfter } from "./cancel-after";
import { readIdempotencyKey } from "./idempotency";
import { readPreferWait } from "./prefer-wait";
import { assertJsonContentType, readJsonBody } from "./read-json-body";

// Everything a request brings, read and checked against its operation before the handler runs:
// the query (ERR1001 naming the parameter), the Idempotency-Key (ERR2014), `Prefer: wait` and
// `Cancel-After` (ERR1001), and the body (the
// schema is resolved first, so an unknown model is ERR1012 whatever the body; then ERR1015 for a
// Content-Type that is not JSON, ERR1011 for size, ERR1001 for JSON and for each invalid field).

export type ParsedInput = {
  query: unknown;
  body: unknown;
  /** The body as sent, before defaults: what an Idempotency-Key is bound to. */
  rawBody: unknown;
  idempotencyKey: string | null;
  /** `Prefer: wait` seconds, for operations that accept it. */
  waitSeconds: number | null;
  /** `Cancel-After` milliseconds, for operations that accept it. */
  cancelAfterMs: number | null;
};

export async function readOperationInput(
  operation: AnyOperation,
  request: Request,
  url: URL,
  params: Readonly<Record<string, string>>,
): Promise<ParsedInput> {
  const query = operation.query ? parseQuery(operation.query, url.searchParams) : {};
  const idempotencyKey = operation.idempotent ? readIdempotencyKey(request) : null;
  const waitSeconds = operation.preferWait ? readPreferWait(request.headers) : null;
  const cancelAfterMs = operation.cancelAfter ? readCancelAfter(request.headers) : null;
  if (!operation.body) return { query, body: undefined, rawBody: undefined, idempotencyKey, waitSeconds, cancelAfterMs };

  const schema = operation.body.schemaFor(params);
  assertJsonContentType(request.headers.get("content-type"));
  const { body: rawBody } = await readJsonBody(request);
  const parsed = schema.safeParse(rawBody);
  if (!parsed.success) {
    const fields = fieldErrorsFromIssues(parsed.error.issues);
    const first = fields[0];
    throw invalidRequest(first ? `The request body is invalid: ${first.field} ${first.message}.` : "The request body is invalid.", fields);
  }
  return { query, body: parsed.data, rawBody, idempotencyKey, waitSeconds, cancelAfterMs };
}
