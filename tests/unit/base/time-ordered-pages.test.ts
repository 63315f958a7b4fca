import { describe, expect, it } from "vitest";
import { timeOrderedPages, type TimeKey } from "@/server/base/pagination/time-ordered-pages";

// timeOrderedPages over an in-memory table that answers as PostgreSQL would: `after` in created_at
// order only (ties in any order, cut by the LIMIT), `at` by id. Every row comes once, in
// (created_at, id) order, however the ties fall on the pages' edges.

type Row = TimeKey & { n: number };

function table(rows: Row[]) {
  let queries = 0;
  const shuffledTies = (list: Row[]) => [...list].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || b.n - a.n);
  return {
    queries: () => queries,
    reads: {
      after: async (after: Date | null, limit: number) => {
        queries += 1;
        return shuffledTies(rows.filter((row) => after === null || row.createdAt > after)).slice(0, limit);
      },
      at: async (at: Date, afterId: string | null, limit: number) => {
        queries += 1;
        return rows
          .filter((row) => row.createdAt.getTime() === at.getTime() && (afterId === null || row.id > afterId))
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .slice(0, limit);
      },
    },
  };
}

async function all(rows: Row[], pageSize: number) {
  const source = table(rows);
  const seen: Row[] = [];
  for await (const page of timeOrderedPages(source.reads, (row) => row, pageSize)) {
    expect(page.length).toBeGreaterThan(0);
    expect(page.length).toBeLessThanOrEqual(pageSize);
    seen.push(...page);
  }
  return { seen, queries: source.queries() };
}

const at = (ms: number) => new Date(Date.UTC(2026, 11, 1) + ms);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const ordered = (rows: Row[]) => [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));

describe("timeOrderedPages", () => {
  it("every row once, in (created_at, id) order, with ties across every page edge", async () => {
    // Groups of 1 to 7 rows at one instant, ids not in insertion order.
    const rows: Row[] = [];
    for (let n = 0, ms = 0; n < 500; ms += 1)
      for (let tie = 0; tie < 1 + (ms % 7) && n < 500; tie += 1, n += 1) rows.push({ n, id: id((n * 37) % 1000), createdAt: at(ms) });
    for (const pageSize of [1, 2, 3, 5, 7, 8, 64, 500, 1000]) {
      const { seen } = await all(rows, pageSize);
      expect(
        seen.map((row) => row.n),
        `page size ${pageSize}`,
      ).toEqual(ordered(rows).map((row) => row.n));
    }
  });

  it("a run of ties longer than a page is read by id, page by page", async () => {
    const rows: Row[] = Array.from({ length: 25 }, (_, n) => ({ n, id: id(100 - n), createdAt: at(n < 3 ? n : 5) }));
    const { seen } = await all(rows, 4);
    expect(seen.map((row) => row.n)).toEqual(ordered(rows).map((row) => row.n));
  });

  it("one query for a range shorter than a page, none left over for an empty one", async () => {
    const rows: Row[] = [0, 1, 2].map((n) => ({ n, id: id(n), createdAt: at(n) }));
    expect(await all(rows, 10)).toEqual({ seen: rows, queries: 1 });
    expect(await all([], 10)).toEqual({ seen: [], queries: 1 });
  });
});
