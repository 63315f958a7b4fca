import { describe, expect, it } from "vitest";
import { accountScope } from "@/server/base/account-scope";
import { db } from "@/server/base/db";
import { getGeneration, listGenerations } from "@/server/edge/http/operations/generations";
import { runRetention } from "@/server/retention/run-retention";
import { getStorage } from "@/server/storage/get-storage";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// A generation purged by retention is gone for the client: GET /v1/content/{id} answers ERR1006
// (as for an id that never existed) and /v1/content/list no longer counts or lists it, nor starts after it.

const DAY = 24 * 3600_000;

describe("after retention", () => {
  it("a purged generation answers ERR1006 and leaves the list; its files are gone", async () => {
    const { key, accountId } = await accountWithKey({ plan: "free" });
    const created = expectSuccess(await createImage(key, { generation_prompt: "kept a day", generation_provider_order: "local" }), 202);
    const record = await waitForStatus(key, created.generation_id);
    expect(record.generation_status).toBe("succeeded");
    const { outputKeys } = await db.generation.findUniqueOrThrow({ where: { id: created.generation_id } });
    expect(outputKeys.length).toBeGreaterThan(0);

    // A day later it is still inside Free's one-day window.
    expect((await runRetention(db, accountScope(accountId), { now: new Date(Date.now() + DAY - 60_000) })).removed.generations).toBe(0);
    expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));

    const pass = await runRetention(db, accountScope(accountId), { now: new Date(Date.now() + 2 * DAY) });
    expect(pass.removed).toMatchObject({ generations: 1, files: outputKeys.length });
    expectError(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }), "ERR1006");
    const list = await callOperation(listGenerations, { key });
    expect(expectSuccess(list).generations).toEqual([]);
    expect(list.body).toMatchObject({ total: 0 });
    // Nor can a page start after it: ERR1001 naming starting_after, as for an id that never existed.
    const after = expectError(await callOperation(listGenerations, { key, query: { starting_after: created.generation_id } }), "ERR1001");
    expect(after.details).toMatchObject({ fields: [{ field: "starting_after" }] });
    for (const outputKey of outputKeys) expect(await getStorage().head(outputKey)).toBeNull();
  });
});
