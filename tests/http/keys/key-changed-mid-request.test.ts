import { describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { db } from "@/server/base/db";
import { getStatus } from "@/server/edge/http/operations/account";
import { getEstimate } from "@/server/edge/http/operations/catalog";
import { deleteApiKey } from "@/server/keys/delete-key";
import { revokeApiKey } from "@/server/keys/revoke-key";
import type { Tx } from "@/server/base/db";
import { inTransaction } from "@/server/base/transaction";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// A key deleted or revoked reaches the app's key cache through NOTIFY, just after the change
// commits: a request can pass the checkpoint with the cached row in between. Whatever it reaches
// then must refuse it as the checkpoint would (401 ERR1002), never answer "not found", and never
// charge it. The tests hold the notice back (the trigger disabled inside the changing
// transaction) so the app keeps the stale row for as long as the test needs.

const TRIGGERS = { delete: "api_key_change_notify_delete", update: "api_key_change_notify_update" } as const;

async function withoutKeyNotice(trigger: keyof typeof TRIGGERS, change: (tx: Tx) => Promise<unknown>) {
  await inTransaction(async (tx) => {
    await tx.$executeRawUnsafe(`ALTER TABLE api_key DISABLE TRIGGER ${TRIGGERS[trigger]}`);
    await change(tx);
    await tx.$executeRawUnsafe(`ALTER TABLE api_key ENABLE TRIGGER ${TRIGGERS[trigger]}`);
  });
}

const balanceOf = async (accountId: string) =>
  (await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { creditBalance: true } })).creditBalance.toString();

describe("a key changed while the app still caches it", () => {
  it("deleted: /v1/status, /v1/estimate and a create are refused with ERR1002; nothing is charged", async () => {
    const { accountId, key, keyId } = await accountWithKey();
    expectSuccess(await callOperation(getStatus, { key }));
    const balance = await balanceOf(accountId);

    await withoutKeyNotice("delete", (tx) => deleteApiKey(tx, OPERATOR, { keyId, actor: "system" }));

    const status = await callOperation(getStatus, { key });
    expect(status.status).toBe(401);
    expect(expectError(status, "ERR1002").details ?? {}).not.toHaveProperty("reason");
    expect(
      (await callOperation(getEstimate, { key, params: { model_identifier: "darkroom/lumen-image" }, query: { count: 1 } })).status,
    ).toBe(401);
    const create = await createImage(key, { generation_prompt: "after the delete" });
    expect(create.status).toBe(401);
    expectError(create, "ERR1002");
    expect(await balanceOf(accountId)).toBe(balance);
    expect(await db.generation.count({ where: { accountId } })).toBe(0);
  });

  it("revoked: a create is refused with ERR1002 and nothing is charged", async () => {
    const { accountId, key, keyId } = await accountWithKey();
    expectSuccess(await callOperation(getStatus, { key }));
    const balance = await balanceOf(accountId);

    await withoutKeyNotice("update", (tx) => revokeApiKey(tx, OPERATOR, { keyId, actor: "system" }));

    const create = await createImage(key, { generation_prompt: "after the revoke" });
    expect(create.status).toBe(401);
    expectError(create, "ERR1002");
    expect(await balanceOf(accountId)).toBe(balance);
    expect(await db.generation.count({ where: { accountId } })).toBe(0);
  });
});
