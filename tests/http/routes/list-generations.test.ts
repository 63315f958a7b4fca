import { describe, expect, it } from "vitest";
import { listGenerations } from "@/server/edge/http/operations/generations";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess } from "@/tests/support/http";

// GET /v1/content/list (listGenerations): newest first, with total, limit and offset beside data.

async function threeGenerations() {
  const { key } = await accountWithKey();
  const ids: string[] = [];
  for (let index = 0; index < 3; index += 1)
    ids.push(expectSuccess(await createImage(key, { generation_prompt: `list ${index}` }), 202).generation_id);
  return { key, ids };
}

describe("200", () => {
  it("lists newest first with total, limit and offset beside data", async () => {
    const { key, ids } = await threeGenerations();
    const page = await callOperation(listGenerations, { key, query: { limit: 2, offset: 0 } });
    const data = expectSuccess(page);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(data.generations.map((record) => record.generation_id)).toEqual([ids[2], ids[1]]);
    const rest = await callOperation(listGenerations, { key, query: { limit: 2, offset: 2 } });
    expect(expectSuccess(rest).generations.map((record) => record.generation_id)).toEqual([ids[0]]);
    expect(expectSuccess(await callOperation(listGenerations, { key })).generations).toHaveLength(3);
  });

  it("serves the legacy list paths with the same page", async () => {
    const { key, ids } = await threeGenerations();
    for (const legacy of [...listGenerations.legacyPaths.map((entry) => entry.path), "/api/v1/content/list"]) {
      const reply = await callOperation(listGenerations, { key, path: legacy, query: { limit: 1 } });
      expect(expectSuccess(reply).generations[0]?.generation_id).toBe(ids[2]);
      expect(reply.body).toMatchObject({ total: 3 });
    }
  });
});

describe("400", () => {
  it("refuses a limit outside 1..100, a negative offset and a non-number", async () => {
    const { key } = await accountWithKey();
    for (const query of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { limit: "abc" }]) {
      expectError(await callOperation(listGenerations, { key, query }), "ERR1001");
    }
  });
});
