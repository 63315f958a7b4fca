import "server-only";
import { env } from "../../base/env";
import { log } from "../../base/log";
import { inTransaction } from "../../base/transaction";
import type { AnyOperation, CommitStep, OperationHandler, OperationInput } from "./define-operation";
import { successBody, type Pagination } from "./envelope";
import { ApiError } from "../../base/error-table";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, requestHash, type StoredResponse } from "./idempotency";
import type { ParsedInput } from "./operation-input";

// Runs an operation's handler and builds its success envelope. Idempotent operations claim the
// key first (or replay what it stored), then run the handler's commit step: its `prepare` outside
// any transaction, its `commit` in a transaction that also stores the response, so the work and
// its replayable answer commit together; a refusal frees the key. Preparing outside the
// transaction keeps a connection from being held while the handler reads on others. With
// `Prefer: wait`, the step's `respond` may then hold the answer (a replay answers what the commit
// stored).

export type OperationOutcome = {
  status: number;
  body: unknown;
  replayed?: StoredResponse;
  headers?: Record<string, string>;
  stream?: Response;
};

type Context = Omit<OperationInput<AnyOperation>, "query" | "body" | "waitSeconds" | "cancelAfterMs"> & { input: ParsedInput };

function envelope(operation: AnyOperation, result: unknown, requestId: string) {
  const { data, pagination } = operation.response.paginated
    ? (result as { data: unknown; pagination: Pagination })
    : { data: result, pagination: undefined };
  // Tests (and any deployment that asks) check every answer against the schema its document shows.
  if (env().RESPONSE_VALIDATION) {
    const checked = operation.response.schema.safeParse(data);
    if (!checked.success) {
      log.error("response does not match its schema", { operation: operation.operationId, issues: checked.error.issues.slice(0, 5) });
      throw new ApiError("ERR5000");
    }
  }
  return successBody(data, { requestId, message: operation.response.message, pagination });
}

/**
 * What an Idempotency-Key is bound to. A Cancel-After is part of the request (a retry with another
 * deadline is another request: ERR2015), as the milliseconds it means ("90s" and "1m30s" are the
 * same); without one the shape is the one keys were stored with before the header existed.
 */
function fingerprintOf(operation: AnyOperation, params: Readonly<Record<string, string>>, input: ParsedInput): unknown {
  const base = operation.body ? operation.body.fingerprint(params, input.rawBody) : { operation: operation.operationId, params };
  return input.cancelAfterMs === null ? base : { request: base, cancel_after_ms: input.cancelAfterMs };
}

export async function runOperation(
  operation: AnyOperation,
  handler: OperationHandler<AnyOperation>,
  context: Context,
): Promise<OperationOutcome> {
  const { input, ...rest } = context;
  const handlerInput = {
    ...rest,
    query: input.query,
    body: input.body,
    waitSeconds: input.waitSeconds,
    cancelAfterMs: input.cancelAfterMs,
  };
  if (!operation.idempotent) {
    const result = await handler(handlerInput as OperationInput<AnyOperation>);
    // A stream (text/event-stream) is its own answer, not an envelope.
    if (result instanceof Response) return { status: result.status, body: null, stream: result };
    return { status: operation.response.status, body: envelope(operation, result, context.requestId) };
  }

  const fingerprint = requestHash(fingerprintOf(operation, context.params, input));
  const claim = input.idempotencyKey
    ? await claimIdempotencyKey(context.accountId, context.key.id, input.idempotencyKey, fingerprint, context.requestId)
    : null;
  if (claim && "replay" in claim) return { status: claim.replay.status, body: claim.replay.body, replayed: claim.replay };
  try {
    const step = (await handler(handlerInput as OperationInput<AnyOperation>)) as unknown as CommitStep<unknown>;
    const prepared = step.prepare ? await step.prepare() : undefined;
    const atOnce = !claim && step.commitAtOnce ? await step.commitAtOnce(prepared) : null;
    const { result, body } =
      atOnce !== null
        ? { result: atOnce, body: envelope(operation, atOnce, context.requestId) }
        : await inTransaction(async (tx) => {
            const result = await step.commit(tx, prepared);
            const built = envelope(operation, result, context.requestId);
            if (claim) await completeIdempotencyKey(tx, claim.recordId, operation.response.status, built);
            return { result, body: built };
          }, operation.transaction);
    if (!step.respond || input.waitSeconds === null) return { status: operation.response.status, body };
    const waited = envelope(operation, await step.respond(result), context.requestId);
    return { status: operation.response.status, body: waited, headers: { "preference-applied": `wait=${input.waitSeconds}` } };
  } catch (error) {
    if (claim) await releaseIdempotencyKey(claim.recordId);
    throw error;
  }
}
