import "server-only";
import { z } from "zod";
import { scopeWhere, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import type { Prisma } from "../base/generated/prisma/client";
import { ActivityCategory } from "../base/generated/prisma/enums";
import { afterPosition, cursorPage, decodePositionCursor } from "../base/pagination/position-cursor";

// The activity feed (spec §2, activity event) of an account, newest first, filtered by category
// and time range, paged with a cursor on (createdAt, id). Members may read it. Each event names
// its actor: the user's name or e-mail when the actor is a user id of a user, else "system".

/** An actor that is a user's id (built once: zod builds a schema on every z.uuid() call). */
const userId = z.uuid();

export const activityFilters = z
  .object({
    category: z.enum(ActivityCategory).optional(),
    /** Inclusive. */
    from: z.date().optional(),
    /** Exclusive. */
    to: z.date().optional(),
    cursor: z.string().max(200).optional(),
    limit: z.int().min(1).max(100).default(50),
  })
  .refine((filters) => !filters.from || !filters.to || filters.from < filters.to, { message: "must be after from", path: ["to"] });

export type ActivityFilters = z.input<typeof activityFilters>;

export type ActivityEntry = {
  id: string;
  /** As stored: a user id, or "system". */
  actor: string;
  /** The user's name or e-mail, or "system" (also for a user id whose user is gone). */
  actorName: string;
  category: ActivityCategory;
  action: string;
  description: string;
  createdAt: Date;
};

export type ActivityPage = { data: ActivityEntry[]; next_cursor: string | null; limit: number };

const activitySelect = {
  id: true,
  actor: true,
  category: true,
  action: true,
  description: true,
  createdAt: true,
} satisfies Prisma.ActivityEventSelect;

export async function listActivity(db: Db, scope: AccountScope, filters: ActivityFilters = {}): Promise<ActivityPage> {
  const { category, from, to, cursor, limit } = activityFilters.parse(filters);
  const after = cursor === undefined ? null : decodePositionCursor(cursor);
  const where: Prisma.ActivityEventWhereInput = {
    ...scopeWhere(scope),
    category,
    AND: [{ createdAt: { gte: from, lt: to } }, afterPosition(after)],
  };
  const rows = await db.activityEvent.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: activitySelect,
  });
  const { page, next_cursor } = cursorPage(rows, limit);
  const names = await actorNames(db, page);
  return { data: page.map((row) => ({ ...row, actorName: names.get(row.actor) ?? "system" })), next_cursor, limit };
}

/** Name (or e-mail) by user id, for the actors of these events that are users. */
export async function actorNames(db: Db, events: ReadonlyArray<{ actor: string }>): Promise<Map<string, string>> {
  const userIds = [...new Set(events.map((event) => event.actor).filter((actor) => userId.safeParse(actor).success))];
  if (userIds.length === 0) return new Map();
  const users = await db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true } });
  return new Map(users.map((user) => [user.id, user.name?.trim() || user.email]));
}
