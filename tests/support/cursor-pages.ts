import { expect } from "vitest";

// Reading a cursor-paged list to its end, as a client would: the ids of every page in order, and how
// many pages it took. `meanwhile` runs after each page (a row created between pages).

export async function readEveryPage<Page>(
  read: (cursor: string | undefined) => Promise<Page>,
  of: (page: Page) => { ids: string[]; next: string | null },
  meanwhile: (pageNumber: number) => Promise<unknown> = async () => {},
) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { ids: pageIds, next } = of(await read(cursor));
    ids.push(...pageIds);
    cursor = next ?? undefined;
    await meanwhile(++pages);
  } while (cursor);
  return { ids, pages };
}

/** The pages covered `expected` exactly: same rows, same order, none twice, `perPage` a page. */
export function expectEveryRowOnce(read: { ids: string[]; pages: number }, expected: string[], perPage: number) {
  expect(read.ids).toEqual(expected);
  expect(new Set(read.ids).size).toBe(read.ids.length);
  expect(read.pages).toBe(Math.max(1, Math.ceil(expected.length / perPage)));
}
