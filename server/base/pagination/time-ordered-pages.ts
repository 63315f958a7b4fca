// Every row of a time range in (createdAt, id) order, a page at a time, with queries an index on
// (…, created_at) serves to the page's end and no further: a page is the next rows by created_at
// alone (the index's order: the scan stops at the LIMIT), and the rows at the page's last instant,
// which the LIMIT may have cut, are then read on their own by id. Ordering by (created_at, id) in
// SQL would make each page sort every later row of the range first (quadratic over a long export).
// Each page is its own query: nothing is held between pages.

export type TimeKey = { createdAt: Date; id: string };

export type TimeOrderedReads<Row> = {
  /** Rows after `after` (from the range's start when null), ORDER BY created_at, at most `limit`. */
  after(after: Date | null, limit: number): Promise<Row[]>;
  /** Rows at exactly `at` with an id after `afterId` (any when null), ORDER BY id, at most `limit`. */
  at(at: Date, afterId: string | null, limit: number): Promise<Row[]>;
};

const byKey = (a: TimeKey, b: TimeKey) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function* timeOrderedPages<Row>(
  reads: TimeOrderedReads<Row>,
  keyOf: (row: Row) => TimeKey,
  pageSize: number,
): AsyncGenerator<Row[]> {
  let after: Date | null = null;
  for (;;) {
    const page = await reads.after(after, pageSize);
    const sorted = page.sort((a, b) => byKey(keyOf(a), keyOf(b)));
    const last = sorted.at(-1);
    // A short page reached the range's end: nothing was cut.
    if (!last || page.length < pageSize) {
      if (sorted.length > 0) yield sorted;
      return;
    }
    const lastAt = keyOf(last).createdAt;
    const whole = sorted.filter((row) => keyOf(row).createdAt < lastAt);
    if (whole.length > 0) yield whole;
    let afterId: string | null = null;
    for (;;) {
      const tied = await reads.at(lastAt, afterId, pageSize);
      if (tied.length > 0) yield tied;
      const lastTied = tied.at(-1);
      if (!lastTied || tied.length < pageSize) break;
      afterId = keyOf(lastTied).id;
    }
    after = lastAt;
  }
}
