import { randomUUID } from "node:crypto";
import type { Tx } from "../base/db";
import type { ActivityCategory } from "../base/generated/prisma/enums";
import { Prisma } from "../base/generated/prisma/client";

// The audit feed (activity events). Written inside the caller's transaction so the event
// commits or rolls back with the change it describes. Never put secrets (raw keys, hashes) here.
// activityEventInsert is the one INSERT of an activity_event row: recordActivity runs it alone; a
// credit movement or a finish puts it in its own statement (activityInsert, or the columns as SQL).

export type ActivityActor = "system" | (string & {});

export type ActivityInput = {
  accountId: string;
  /** A user id, or "system" for operator tools, background work and API-key requests. */
  actor: ActivityActor;
  category: ActivityCategory;
  /** Machine-readable, `<category>.<verb>`: "api_key.created", "credit.reserved". */
  action: string;
  description: string;
  metadata?: Prisma.InputJsonObject;
};

/** Each column of an activity row as SQL: a bound value with its cast, or a column of the statement's `from`. */
export type ActivityRowValues = {
  id: Prisma.Sql;
  accountId: Prisma.Sql;
  actor: Prisma.Sql;
  category: Prisma.Sql;
  action: Prisma.Sql;
  description: Prisma.Sql;
  metadata: Prisma.Sql;
  createdAt: Prisma.Sql;
};

/** The one INSERT of an `activity_event` row: one row, or one per row of `from` (`FROM entry`). */
export function activityEventInsert(values: ActivityRowValues, from: Prisma.Sql = Prisma.empty): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO activity_event (id, account_id, actor, category, action, description, metadata, created_at)
    SELECT ${values.id}, ${values.accountId}, ${values.actor}, ${values.category}, ${values.action}, ${values.description}, ${values.metadata}, ${values.createdAt}
      ${from}`;
}

/**
 * The INSERT of one event with known values, for a statement of the caller's. With `onlyIfRowIn`,
 * the row is written only when that WITH item of the same statement returned a row (a movement's `entry`).
 */
export function activityInsert(input: ActivityInput, options: { id: string; createdAt: Date; onlyIfRowIn?: "entry" }): Prisma.Sql {
  return activityEventInsert(
    {
      id: Prisma.sql`${options.id}::uuid`,
      accountId: Prisma.sql`${input.accountId}::uuid`,
      actor: Prisma.sql`${input.actor}::text`,
      category: Prisma.sql`${input.category}::"ActivityCategory"`,
      action: Prisma.sql`${input.action}::text`,
      description: Prisma.sql`${input.description}::text`,
      metadata: Prisma.sql`${JSON.stringify(input.metadata ?? {})}::jsonb`,
      createdAt: Prisma.sql`${options.createdAt}::timestamptz`,
    },
    options.onlyIfRowIn ? Prisma.raw(`FROM ${options.onlyIfRowIn}`) : Prisma.empty,
  );
}

export async function recordActivity(tx: Tx, input: ActivityInput): Promise<{ id: string }> {
  const id = randomUUID();
  await tx.$executeRaw(activityInsert(input, { id, createdAt: new Date() }));
  return { id };
}
