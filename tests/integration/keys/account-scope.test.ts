import { describe, expect, it } from "vitest";
import { accountScope, OPERATOR } from "@/server/base/account-scope";
import { db } from "@/server/base/db";
import { ApiError } from "@/server/base/error-table";
import { deleteApiKey } from "@/server/keys/delete-key";
import { revokeApiKey } from "@/server/keys/revoke-key";
import { rotateApiKey } from "@/server/keys/rotate-key";
import { accountWithKey, createTestAccount } from "@/tests/support/fixtures";
import { inTransaction } from "@/server/base/transaction";

// Under another account's scope a key does not exist (ERR1006) and is left as it was; under its
// own account's scope, or the operator's, the same call goes through.

async function notFound(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("ERR1006");
}

describe("key changes under an account scope", () => {
  it("treats another account's key as not found and leaves it active", async () => {
    const owner = await accountWithKey();
    const stranger = accountScope((await createTestAccount()).accountId);
    const input = { keyId: owner.keyId, actor: "system" as const };

    await notFound(inTransaction((tx) => revokeApiKey(tx, stranger, input)));
    await notFound(inTransaction((tx) => rotateApiKey(tx, stranger, input)));
    await notFound(inTransaction((tx) => deleteApiKey(tx, stranger, input)));
    expect(await db.apiKey.findUniqueOrThrow({ where: { id: owner.keyId } })).toMatchObject({ status: "active", replacedById: null });
    expect(
      await db.activityEvent.count({ where: { accountId: owner.accountId, category: "api_key", action: { not: "api_key.created" } } }),
    ).toBe(0);
  });

  it("lets the key's own account and the operator act on it", async () => {
    const owner = await accountWithKey();
    const rotated = await inTransaction((tx) => rotateApiKey(tx, accountScope(owner.accountId), { keyId: owner.keyId, actor: "system" }));
    expect(
      (await inTransaction((tx) => revokeApiKey(tx, accountScope(owner.accountId), { keyId: rotated.apikey_id, actor: "system" }))).changed,
    ).toBe(true);
    expect(await inTransaction((tx) => deleteApiKey(tx, OPERATOR, { keyId: owner.keyId, actor: "system" }))).toEqual({
      apikey_id: owner.keyId,
      deleted: true,
    });
  });
});
