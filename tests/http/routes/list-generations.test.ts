import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deleteGeneration, listGenerations } from "@/server/edge/http/operations/generations";
import { expectEveryRowOnce, readEveryPage } from "@/tests/support/cursor-pages";
import { accountWithKey } from "@/tests/support/fixtures";
import { createImage, seedFinishedImage, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectError, expectSuccess, invalidFields } from "@/tests/support/http";

// GET /v1/content/list (listGenerations): newest first, with total, limit, offset, has_more and
// next_cursor beside data; paged by offset or by cursor (starting_after).

async function threeGenerations() {
  const { key, accountId } = await accountWithKey();
  const ids: string[] = [];
  for (let index = 0; index < 3; index += 1)
    ids.push(expectSuccess(await createImage(key, { generation_prompt: `list ${index}` }), 202).generation_id);
  return { key, accountId, ids };
}

type Page = { generations: Array<{ generation_id: string }> };
const idsOf = (page: Page) => page.generations.map((record) => record.generation_id);
const list = (key: string, query: Record<string, string | number>) => callOperation(listGenerations, { key, query });

describe("200", () => {
  it("lists newest first with total, limit, offset, has_more and next_cursor beside data", async () => {
    const { key, ids } = await threeGenerations();
    const page = await list(key, { limit: 2, offset: 0 });
    const data = expectSuccess(page);
    expect(page.body).toMatchObject({ total: 3, limit: 2, offset: 0, has_more: true, next_cursor: ids[1] });
    expect(idsOf(data)).toEqual([ids[2], ids[1]]);
    const rest = await list(key, { limit: 2, offset: 2 });
    expect(idsOf(expectSuccess(rest))).toEqual([ids[0]]);
    expect(rest.body).toMatchObject({ offset: 2, has_more: false, next_cursor: null });
    const all = await callOperation(listGenerations, { key });
    expect(expectSuccess(all).generations).toHaveLength(3);
    expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0, has_more: false, next_cursor: null });
  });

  it("pages by starting_after: the generations after that one, newest first, then an empty last page", async () => {
    const { key, ids } = await threeGenerations();
    const first = await list(key, { limit: 1 });
    expect(idsOf(expectSuccess(first))).toEqual([ids[2]]);
    const second = await list(key, { limit: 1, starting_after: ids[2]! });
    expect(idsOf(expectSuccess(second))).toEqual([ids[1]]);
    expect(second.body).toMatchObject({ total: 3, limit: 1, offset: 0, has_more: true, next_cursor: ids[1] });
    const rest = await list(key, { limit: 5, starting_after: ids[1]! });
    expect(idsOf(expectSuccess(rest))).toEqual([ids[0]]);
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null });
    const after = await list(key, { starting_after: ids[0]! });
    expect(expectSuccess(after).generations).toEqual([]);
    expect(after.body).toMatchObject({ total: 3, limit: 50, has_more: false, next_cursor: null });
    // The same record as the offset page shows, once it no longer moves.
    await waitForStatus(key, ids[1]!);
    const byCursor = expectSuccess(await list(key, { limit: 1, starting_after: ids[2]! })).generations[0];
    expect(byCursor).toEqual(expectSuccess(await list(key, { limit: 1, offset: 1 })).generations[0]);
  });

  it("covers every generation once, with ties on created_at, while new generations are created between pages", async () => {
    const { key, accountId } = await accountWithKey();
    const at = (minutesAgo: number) => new Date(Date.now() - 3_600_000 - minutesAgo * 60_000);
    for (const minutesAgo of [1, 2, 2, 2, 2, 3, 4, 5]) await seedFinishedImage(accountId, { createdAt: at(minutesAgo) });
    const expected = idsOf(expectSuccess(await list(key, { limit: 100 })));
    expect(expected).toHaveLength(8);
    const read = await readEveryPage(
      async (cursor) => {
        const reply = await list(key, cursor ? { limit: 3, starting_after: cursor } : { limit: 3 });
        return { data: expectSuccess(reply), body: reply.body as { next_cursor: string | null; has_more: boolean } };
      },
      ({ data, body }) => {
        expect(body.has_more).toBe(body.next_cursor !== null);
        return { ids: idsOf(data), next: body.next_cursor };
      },
      // A real create between pages: newer than every page read, it never shows up in the later ones.
      async () => expectSuccess(await createImage(key, { generation_prompt: "meanwhile" }), 202),
    );
    expectEveryRowOnce(read, expected, 3);
  });

  it("takes a deleted generation (its record is kept) as the starting point, and limit 1 and 100", async () => {
    const { key, ids } = await threeGenerations();
    expectSuccess(await callOperation(deleteGeneration, { key, params: { generation_id: ids[1]! } }));
    expect(idsOf(expectSuccess(await list(key, { starting_after: ids[1]!, limit: 100 })))).toEqual([ids[0]]);
    expect(idsOf(expectSuccess(await list(key, { starting_after: ids[2]!, limit: 1 })))).toEqual([ids[1]]);
  });

  it("serves the legacy list paths with the same page", async () => {
    const { key, ids } = await threeGenerations();
    for (const legacy of [...listGenerations.legacyPaths.map((entry) => entry.path), "/api/v1/content/list"]) {
      const reply = await callOperation(listGenerations, { key, path: legacy, query: { limit: 1 } });
      expect(expectSuccess(reply).generations[0]?.generation_id).toBe(ids[2]);
      expect(reply.body).toMatchObject({ total: 3 });
      const after = await callOperation(listGenerations, { key, path: legacy, query: { limit: 1, starting_after: ids[2]! } });
      expect(expectSuccess(after).generations[0]?.generation_id).toBe(ids[1]);
    }
  });
});

describe("400", () => {
  it("refuses a limit outside 1..100, a negative offset and a non-number, with or without starting_after", async () => {
    const { key, ids } = await threeGenerations();
    for (const query of [{ limit: 0 }, { limit: 101 }, { offset: -1 }, { limit: "abc" }]) {
      expectError(await callOperation(listGenerations, { key, query }), "ERR1001");
    }
    for (const limit of [0, 101, "abc"]) {
      const error = expectError(await callOperation(listGenerations, { key, query: { limit, starting_after: ids[2]! } }), "ERR1001");
      expect(invalidFields(error)).toEqual(["limit"]);
    }
  });

  it("refuses starting_after together with offset, naming both", async () => {
    const { key, ids } = await threeGenerations();
    for (const offset of [0, 1]) {
      const error = expectError(await list(key, { starting_after: ids[2]!, offset }), "ERR1001");
      expect(invalidFields(error)).toEqual(["starting_after", "offset"]);
      expect(error.message).toBe("starting_after cannot be combined with offset.");
    }
  });

  it("refuses a starting_after that is malformed, another account's generation or no generation, naming it", async () => {
    const { key } = await threeGenerations();
    const other = await threeGenerations();
    for (const startingAfter of ["abc", "gen_123", `${other.ids[0]}x`]) {
      const error = expectError(await list(key, { starting_after: startingAfter }), "ERR1001");
      expect(error.details).toEqual({ fields: [{ field: "starting_after", message: "must be a generation id" }] });
    }
    for (const startingAfter of [other.ids[0]!, randomUUID()]) {
      const error = expectError(await list(key, { starting_after: startingAfter }), "ERR1001");
      expect(invalidFields(error)).toEqual(["starting_after"]);
      expect(error.message).toBe(`starting_after is not a generation of this account: ${startingAfter}.`);
    }
  });
});
