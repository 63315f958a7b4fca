import "server-only";
import type { OneAccount } from "../../base/account-scope";
import type { Db } from "../../base/db";
import { timeOrderedPages, type TimeOrderedReads } from "../../base/pagination/time-ordered-pages";
import { actorNames, type ActivityEntry } from "../list-activity";

// The account's activity events in [start, end), oldest first, in (created_at, id) order a page at
// a time (timeOrderedPages, on the (account_id, created_at) index); each carries its actor's
// current name (as the feed shows it). Memory: one page, and the names of the users met so far.

/** An event as the feed shows it (listActivity's entry). */
export type ActivityExportEvent = ActivityEntry;

const DEFAULT_PAGE_SIZE = 2000;

const select = { id: true, actor: true, category: true, action: true, description: true, createdAt: true } as const;

export async function* activityExportEvents(
  database: Db,
  scope: OneAccount,
  input: { start: Date; end: Date; pageSize?: number },
): AsyncGenerator<ActivityExportEvent> {
  const names = new Map<string, string>();
  const inRange = { accountId: scope.accountId, createdAt: { gte: input.start, lt: input.end } };
  const reads: TimeOrderedReads<Omit<ActivityExportEvent, "actorName">> = {
    after: (after, take) =>
      database.activityEvent.findMany({
        where: { ...inRange, ...(after ? { AND: [{ createdAt: { gt: after } }] } : {}) },
        orderBy: { createdAt: "asc" },
        take,
        select,
      }),
    at: (at, afterId, take) =>
      database.activityEvent.findMany({
        where: { accountId: scope.accountId, createdAt: at, ...(afterId ? { id: { gt: afterId } } : {}) },
        orderBy: { id: "asc" },
        take,
        select,
      }),
  };
  for await (const page of timeOrderedPages(reads, (event) => event, input.pageSize ?? DEFAULT_PAGE_SIZE)) {
    const unnamed = page.filter((event) => !names.has(event.actor));
    for (const [id, name] of await actorNames(database, unnamed)) names.set(id, name);
    for (const event of page) yield { ...event, actorName: names.get(event.actor) ?? "system" };
  }
}
