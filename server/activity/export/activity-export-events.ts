import "server-only";
import type { OneAccount } from "../../base/account-scope";
import type { Db } from "../../base/db";
import { actorNames, type ActivityEntry } from "../list-activity";

// The account's activity events in [start, end), oldest first, read by keyset cursor on
// (created_at, id) a page at a time; each carries its actor's current name (as the feed shows it).
// Memory: one page, and the names of the users met so far.

/** An event as the feed shows it (listActivity's entry). */
export type ActivityExportEvent = ActivityEntry;

const DEFAULT_PAGE_SIZE = 2000;

export async function* activityExportEvents(
  database: Db,
  scope: OneAccount,
  input: { start: Date; end: Date; pageSize?: number },
): AsyncGenerator<ActivityExportEvent> {
  const pageSize = input.pageSize ?? DEFAULT_PAGE_SIZE;
  const names = new Map<string, string>();
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const page: Omit<ActivityExportEvent, "actorName">[] = await database.activityEvent.findMany({
      where: {
        accountId: scope.accountId,
        createdAt: { gte: input.start, lt: input.end },
        ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: pageSize,
      select: { id: true, actor: true, category: true, action: true, description: true, createdAt: true },
    });
    const unnamed = page.filter((event) => !names.has(event.actor));
    for (const [id, name] of await actorNames(database, unnamed)) names.set(id, name);
    for (const event of page) yield { ...event, actorName: names.get(event.actor) ?? "system" };
    const last = page.at(-1);
    if (!last || page.length < pageSize) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}
