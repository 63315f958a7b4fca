import "server-only";
import { createHash } from "node:crypto";
import { db, type Tx } from "../../base/db";
import { Prisma } from "../../base/generated/prisma/client";
import { IDEMPOTENCY_KEY_PATTERN } from "../contract/generations";
import { ApiError } from "../../base/error-table";
import { executeInTransaction } from "../../base/transaction-sql";

// Idempotency-Key on the idempotent operations (the create routes), per account and API key
// lineage (the key and the keys rotated from it, so a client retrying across a rotation still gets
// its answer; another key of the account never does: it runs the request afresh). The first
// request claims the key in its own committed row, so a duplicate arriving meanwhile sees "in
// progress" (ERR2016); a finished request's status, body and request_id are replayed for 24 h; a
// different body under the same key is ERR2015. Only accepted requests are stored: a refused one
// (ERR1004, ERR1009) releases the key, so the client can retry with it.

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
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

type StoredRecord = {
  id: string;
  requestHash: string;
  state: "in_progress" | "completed";
  requestId: string;
  statusCode: number | null;
  responseBody: unknown;
  createdAt: Date;
  expiresAt: Date | null;
};

/**
 * Claims the key for the API key's lineage (its first key's id, which a rotation carries as the
 * budget id: coalesce(spend_budget_id, id)) in one statement; null when a record holds it.
 */
async function insertClaim(accountId: string, apiKeyId: string, key: string, hash: string, requestId: string): Promise<string | null> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    INSERT INTO idempotency_record (id, account_id, api_key_lineage_id, key, request_hash, request_id)
    SELECT gen_random_uuid(), k.account_id, coalesce(k.spend_budget_id, k.id), ${key}, ${hash}, ${requestId}
      FROM api_key k WHERE k.id = ${apiKeyId}::uuid AND k.account_id = ${accountId}::uuid
    ON CONFLICT (account_id, api_key_lineage_id, key) DO NOTHING
    RETURNING id::text`;
  return rows[0]?.id ?? null;
}

async function findClaim(accountId: string, apiKeyId: string, key: string): Promise<StoredRecord | undefined> {
  const rows = await db.$queryRaw<StoredRecord[]>`
    SELECT r.id::text, r.request_hash AS "requestHash", r.state::text, r.request_id AS "requestId", r.status_code AS "statusCode",
           r.response_body AS "responseBody", r.created_at AS "createdAt", r.expires_at AS "expiresAt"
      FROM api_key k JOIN idempotency_record r ON r.account_id = k.account_id AND r.api_key_lineage_id = coalesce(k.spend_budget_id, k.id)
     WHERE k.id = ${apiKeyId}::uuid AND k.account_id = ${accountId}::uuid AND r.key = ${key}`;
  return rows[0];
}

/** Claims the key, or returns the stored response to replay; throws ERR2015 / ERR2016. */
export async function claimIdempotencyKey(
  accountId: string,
  apiKeyId: string,
  key: string,
  hash: string,
  requestId: string,
): Promise<IdempotencyClaim> {
  for (let tries = 0; tries < 3; tries += 1) {
    const recordId = await insertClaim(accountId, apiKeyId, key, hash, requestId);
    if (recordId) return { recordId };
    const existing = await findClaim(accountId, apiKeyId, key);
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
                      completed_at = ${now}, expires_at = ${new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS)} WHERE id = ${recordId}::uuid`,
  );
  if (completed !== 1) throw new Error(`idempotency record ${recordId} is gone: the operation is not committed`);
}

export async function releaseIdempotencyKey(recordId: string) {
  await db.idempotencyRecord.deleteMany({ where: { id: recordId, state: "in_progress" } });
}
