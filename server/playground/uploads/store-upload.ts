import "server-only";
import { randomUUID } from "node:crypto";
import { ApiError } from "../../base/error-table";
import { log } from "../../base/log";
import { inTransaction } from "../../base/transaction";
import { db } from "../../base/db";
import { getStorage } from "../../storage/get-storage";
import { signFileUrl } from "../../storage/signed-url";
import type { OutputStorage } from "../../storage/storage";
import { UPLOAD_EXTENSIONS, UPLOAD_KINDS, UPLOAD_TYPES, sniffImageType } from "./upload-image-type";

// An input image uploaded from the playground: its type checked by its bytes, a row (counted
// against the account's live uploads under a lock, so two tabs cannot pass the cap together),
// then the object at uploads/<account>/<uuid>.<ext>. The row comes first: a crash between the
// two leaves a row the cleanup deletes, never an object nothing points to.

export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Unexpired uploads an account may hold. */
export const MAX_LIVE_UPLOADS = 100;
const UPLOAD_LOCK_CLASS = 27768;

export type StoredUpload = { url: string; expires_at: string; content_type: string; size_bytes: number };

export type UploadInput = { accountId: string; userId: string; bytes: Uint8Array; declaredType: string; now?: Date };

export function uploadKey(accountId: string, id: string, extension: string): string {
  return `uploads/${accountId}/${id}.${extension}`;
}

/** ERR1015 unless the bytes are one of the upload types, and the one they were sent as. */
export function assertUploadBytes(bytes: Uint8Array, declaredType: string) {
  const actual = sniffImageType(bytes);
  if (!actual) {
    throw new ApiError("ERR1015", `The file is not a ${UPLOAD_KINDS} image, whatever its name says.`, {
      content_type: declaredType,
      accepted: UPLOAD_TYPES,
    });
  }
  if (actual !== declaredType) {
    throw new ApiError("ERR1015", `The file was sent as ${declaredType}, but its bytes are ${actual}.`, {
      content_type: declaredType,
      detected_type: actual,
    });
  }
  return actual;
}

export async function storeUpload(input: UploadInput, storage: OutputStorage = getStorage()): Promise<StoredUpload> {
  const contentType = assertUploadBytes(input.bytes, input.declaredType);
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + UPLOAD_LIFETIME_MS);
  const id = randomUUID();
  const storageKey = uploadKey(input.accountId, id, UPLOAD_EXTENSIONS[contentType]);
  await inTransaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${UPLOAD_LOCK_CLASS}::int, hashtext(${input.accountId}))`;
    const live = await tx.playgroundUpload.findMany({
      where: { accountId: input.accountId, expiresAt: { gt: now } },
      select: { expiresAt: true },
      orderBy: { expiresAt: "asc" },
      take: MAX_LIVE_UPLOADS,
    });
    if (live.length >= MAX_LIVE_UPLOADS) {
      const next = live[0]!.expiresAt;
      throw new ApiError(
        "ERR1009",
        `This account already holds ${MAX_LIVE_UPLOADS} uploads that have not expired; each expires 24 hours after it was uploaded. Use a URL, or upload again after ${next.toISOString()}.`,
        { limit: MAX_LIVE_UPLOADS, next_expires_at: next.toISOString() },
        { "retry-after": String(Math.max(1, Math.ceil((next.getTime() - now.getTime()) / 1000))) },
      );
    }
    await tx.playgroundUpload.create({
      data: {
        id,
        accountId: input.accountId,
        userId: input.userId,
        storageKey,
        contentType,
        sizeBytes: input.bytes.byteLength,
        createdAt: now,
        expiresAt,
      },
    });
  });
  try {
    await storage.put(storageKey, input.bytes, contentType);
  } catch (error) {
    log.error("playground upload: storing the file failed", { error: error instanceof Error ? error.message : String(error) });
    await db.playgroundUpload.delete({ where: { id } }).catch(() => undefined);
    throw new ApiError("ERR5000", "The file could not be stored. Try again.");
  }
  return {
    url: signFileUrl(storageKey, { expiresAt }),
    expires_at: expiresAt.toISOString(),
    content_type: contentType,
    size_bytes: input.bytes.byteLength,
  };
}
