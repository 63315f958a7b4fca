import "server-only";
import { createHash } from "node:crypto";
import { db, type Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { IDEMPOTENCY_KEY_PATTERN } from "../contract/generations";
import { ApiError } from "../error-table";
import { executeInTransaction } from "../transaction-sql";

// Idempotency-Key on the idempotent operations (the create routes), per account and API key
// lineage (the key and the keys rotated from it, so a client retrying across a rotation still gets
// its answer; another key of the account never does: it runs the request afresh). The first
// request claims the key in its own committed row, so a duplicate arriving meanwhile sees "in
// progress" (ERR2016); a finished request's status, body and request_id are replayed for 24 h; a
// different body under the same key is ERR2015. Only accepted requests are stored: a refused one
// (ERR1004, ERR1009) releases the key, so the client can retry with it.

const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim older than this belongs to a request that died: it is taken over. */
const ABANDONED_AFTER_MS = 60_000;

/** A stored response, returned as it was: same request_id, status and body. */
export type StoredResponse = { requestId: string; status: number; body: unknown };

export type IdempotencyClaim = { recordId: string } | { replay: StoredResponse };

export function readIdempotencyKey(request: Request): string | null {
  const key = request.headers.get("idempotency-key");
  if (key === null) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw new ApiError("ERR2014", undefined, { pattern: "[A-Za-z0-9_\\-:.]{1,255}" });
  return key;
}

export function requestHash(parts: unknown): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}

/** The lineage a key belongs to: its first key's id, which a rotation carries as the budget id. */
async function keyLineageOf(accountId: string, apiKeyId: string): Promise<string> {
  const key = await db.apiKey.findFirst({ where: { id: apiKeyId, accountId }, select: { id: true, spendBudgetId: true } });
  if (!key) throw new ApiError("ERR1002");
  return key.spendBudgetId ?? key.id;
}

/** Claims the key, or returns the stored response to replay; throws ERR2015 / ERR2016. */
export async function claimIdempotencyKey(accountId: string, apiKeyId: string, key: string, hash: string, requestId: string): Promise<IdempotencyClaim> {
  const apiKeyLineageId = await keyLineageOf(accountId, apiKeyId);
  for (let tries = 0; tries < 3; tries += 1) {
    try {
      const record = await db.idempotencyRecord.create({ data: { accountId, apiKeyLineageId, key, requestHash: hash, requestId }, select: { id: true } });
      return { recordId: record.id };
    } catch (error) {
      if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
    }
    const existing = await db.idempotencyRecord.findUnique({ where: { accountId_apiKeyLineageId_key: { accountId, apiKeyLineageId, key } } });
    if (!existing) continue;
    const expired = existing.expiresAt !== null && existing.expiresAt.getTime() < Date.now();
    const abandoned = existing.state === "in_progress" && Date.now() - existing.createdAt.getTime() > ABANDONED_AFTER_MS;
    if (expired || abandoned) {
      await db.idempotencyRecord.deleteMany({ where: { id: existing.id } });
      continue;
    }
    if (existing.requestHash !== hash) {
      throw new ApiError("ERR2015", "This Idempotency-Key was used with a different request.", { idempotency_key: key });
    }
    if (existing.state === "in_progress") {
      throw new ApiError("ERR2016", undefined, { idempotency_key: key, original_request_id: existing.requestId });
    }
    return { replay: { requestId: existing.requestId, status: existing.statusCode ?? 200, body: existing.responseBody } };
  }
  throw new ApiError("ERR2016", undefined, { idempotency_key: key });
}

/**
 * Stores the accepted response in the create transaction, on its connection directly (a create's
 * transaction is opened with pg and would run again under Prisma for a Prisma call). The record
 * must still be there: a vanished one fails the operation, as Prisma's update did.
 */
export async function completeIdempotencyKey(tx: Tx, recordId: string, statusCode: number, responseBody: unknown) {
  const now = new Date();
  const completed = await executeInTransaction(
    tx,
    Prisma.sql`UPDATE idempotency_record SET state = 'completed', status_code = ${statusCode}::int, response_body = ${JSON.stringify(responseBody)}::jsonb,
                      completed_at = ${now}, expires_at = ${new Date(now.getTime() + RETENTION_MS)} WHERE id = ${recordId}::uuid`,
  );
  if (completed !== 1) throw new Error(`idempotency record ${recordId} is gone: the operation is not committed`);
}

export async function releaseIdempotencyKey(recordId: string) {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId, state: "in_progress" } });
}
