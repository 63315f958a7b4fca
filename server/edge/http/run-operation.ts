import "server-only";
import { env } from "../../base/env";
import { log } from "../../base/log";
import { inTransaction } from "../../base/transaction";
import type { AnyOperation, CommitStep, OperationHandler, OperationInput } from "./define-operation";
import { successBody, type Pagination } from "./envelope";
import { ApiError } from "../../base/error-table";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_RETENTION_MS,
  releaseIdempotencyKey,
  requestHash,
  type StoredResponse,
} from "./idempotency";
import type { ParsedInput } from "./operation-input";

// Runs an operation's handler and builds its success envelope. An idempotent operation's commit
// step first tries its one-statement commit (`commitAtOnce`), which stores the Idempotency-Key's
// completed record in the same statement when the request has one; when that writes nothing (a
// decline, or the key already held), the key is claimed (or what it stored is replayed) and the
// step's `commit` runs in a transaction that also stores the answer, so the work and its
// replayable answer always commit together; a refusal frees the key. `prepare` runs outside any
// transaction, so no connection is held while the handler reads on others. With `Prefer: wait`,
// the step's `respond` may then hold the answer (a replay answers what the commit stored).

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
  const key = input.idempotencyKey;
  const claimKey = () => claimIdempotencyKey(context.accountId, context.key.id, key!, fingerprint, context.requestId);
  const replayed = (replay: StoredResponse): OperationOutcome => ({ status: replay.status, body: replay.body, replayed: replay });

  let step: CommitStep<unknown>;
  let prepared: unknown;
  try {
    step = (await handler(handlerInput as OperationInput<AnyOperation>)) as unknown as CommitStep<unknown>;
    prepared = step.prepare ? await step.prepare() : undefined;
  } catch (error) {
    // A key already used answers as it did (a replay, ERR2015, ERR2016) before this request's refusal.
    if (key) {
      const claim = await claimKey();
      if ("replay" in claim) return replayed(claim.replay);
      await releaseIdempotencyKey(claim.recordId);
    }
    throw error;
  }

  // The usual create is one statement, the key's completed record in it; the answer it stores is
  // the one returned.
  let storedBody: unknown;
  const keyRecord = key
    ? (result: unknown) => {
        storedBody = envelope(operation, result, context.requestId);
        const expiresAt = new Date(Date.now() + IDEMPOTENCY_RETENTION_MS);
        return {
          key,
          requestHash: fingerprint,
          requestId: context.requestId,
          statusCode: operation.response.status,
          responseBody: storedBody,
          expiresAt,
        };
      }
    : null;
  const atOnce = step.commitAtOnce ? await step.commitAtOnce(prepared, keyRecord) : null;
  if (atOnce !== null) return respond(step, atOnce, storedBody ?? envelope(operation, atOnce, context.requestId));

  const claim = key ? await claimKey() : null;
  if (claim && "replay" in claim) return replayed(claim.replay);
  try {
    const { result, body } = await inTransaction(async (tx) => {
      const result = await step.commit(tx, prepared);
      const built = envelope(operation, result, context.requestId);
      if (claim) await completeIdempotencyKey(tx, claim.recordId, operation.response.status, built);
      return { result, body: built };
    }, operation.transaction);
    return await respond(step, result, body);
  } catch (error) {
    if (claim) await releaseIdempotencyKey(claim.recordId);
    throw error;
  }

  /** `Prefer: wait`: the step's `respond` may hold the answer once committed. */
  async function respond(step: CommitStep<unknown>, result: unknown, body: unknown): Promise<OperationOutcome> {
    if (!step.respond || input.waitSeconds === null) return { status: operation.response.status, body };
    const waited = envelope(operation, await step.respond(result), context.requestId);
    return { status: operation.response.status, body: waited, headers: { "preference-applied": `wait=${input.waitSeconds}` } };
  }
}
