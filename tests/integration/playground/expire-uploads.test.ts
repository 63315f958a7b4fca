import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { createTeamAccount } from "@/server/accounts/create-team-account";
import { accountScope } from "@/server/base/account-scope";
import { db, disconnectDb } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";
import { expireUploads } from "@/server/playground/uploads/expire-uploads";
import { storeUpload, UPLOAD_LIFETIME_MS } from "@/server/playground/uploads/store-upload";
import { getStorage } from "@/server/storage/get-storage";
import { localDiskStorage } from "@/server/storage/local-disk";
import type { OutputStorage } from "@/server/storage/storage";
import { createCaller } from "@/tests/support/dashboard-caller";
import { createTestAccount } from "@/tests/support/fixtures";

// The playground's uploads after their 24 hours, against the real database and storage: the
// expiry deletes the object and the row, keeps what is still live, keeps a row whose object could
// not be deleted; deleting a team account takes its uploads at once.

afterAll(disconnectDb);

const png = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: "#208040" } })
    .png()
    .toBuffer();

async function uploadAt(accountId: string, userId: string, at: Date) {
  const stored = await storeUpload({ accountId, userId, bytes: await png(), declaredType: "image/png", now: at });
  const row = await db.playgroundUpload.findFirstOrThrow({ where: { accountId, createdAt: at }, orderBy: { createdAt: "desc" } });
  return { ...stored, key: row.storageKey, id: row.id };
}

describe("expireUploads", () => {
  it("deletes expired uploads' objects and rows, and keeps live ones", async () => {
    const { accountId, userId } = await createTestAccount();
    const now = new Date();
    const old = await uploadAt(accountId, userId, new Date(now.getTime() - UPLOAD_LIFETIME_MS - 60_000));
    const young = await uploadAt(accountId, userId, new Date(now.getTime() - 60_000));
    expect(await getStorage().get(old.key)).not.toBeNull();

    const result = await expireUploads(accountScope(accountId), { now });
    expect(result).toEqual({ uploads: 1, filesDeleted: 1, deferred: 0 });
    expect(await getStorage().get(old.key)).toBeNull();
    expect(await db.playgroundUpload.findUnique({ where: { id: old.id } })).toBeNull();
    expect(await getStorage().get(young.key)).not.toBeNull();
    expect(await db.playgroundUpload.findUnique({ where: { id: young.id } })).not.toBeNull();

    // Once past its own 24 hours, the young one goes too; a second pass finds nothing.
    expect(await expireUploads(accountScope(accountId), { now: new Date(now.getTime() + UPLOAD_LIFETIME_MS) })).toEqual({
      uploads: 1,
      filesDeleted: 1,
      deferred: 0,
    });
    expect(await expireUploads(accountScope(accountId), { now: new Date(now.getTime() + UPLOAD_LIFETIME_MS) })).toEqual({
      uploads: 0,
      filesDeleted: 0,
      deferred: 0,
    });
  });

  it("keeps the row of an object storage could not delete, for the next pass; a missing object is not an error", async () => {
    const { accountId, userId } = await createTestAccount();
    const now = new Date();
    const stuck = await uploadAt(accountId, userId, new Date(now.getTime() - UPLOAD_LIFETIME_MS - 1000));
    const refusing: OutputStorage = { ...localDiskStorage(), delete: () => Promise.reject(new Error("storage is down")) };
    expect(await expireUploads(accountScope(accountId), { now }, refusing)).toEqual({ uploads: 0, filesDeleted: 0, deferred: 1 });
    expect(await db.playgroundUpload.findUnique({ where: { id: stuck.id } })).not.toBeNull();

    await getStorage().delete(stuck.key);
    expect(await expireUploads(accountScope(accountId), { now })).toEqual({ uploads: 1, filesDeleted: 0, deferred: 0 });
  });

  it("deleting a team account removes its uploads, objects and rows", async () => {
    const { userId } = await createTestAccount();
    const name = `Upload Team ${Math.random().toString(36).slice(2, 8)}`;
    const { account_id: accountId } = await inTransaction((tx) => createTeamAccount(tx, { userId, name }));
    const upload = await uploadAt(accountId, userId, new Date());
    const other = await createTestAccount();
    const kept = await uploadAt(other.accountId, other.userId, new Date());

    await createCaller({ userId }).settings.deleteAccount({ accountId, confirmName: name });
    expect(await db.playgroundUpload.count({ where: { accountId } })).toBe(0);
    expect(await getStorage().get(upload.key)).toBeNull();
    expect(await getStorage().get(kept.key)).not.toBeNull();
  });
});
