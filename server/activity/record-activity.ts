import { randomUUID } from "node:crypto";
import type { Tx } from "../base/db";
import type { ActivityCategory } from "../base/generated/prisma/enums";
import { Prisma } from "../base/generated/prisma/client";

// The audit feed (activity events). Written inside the caller's transaction so the event
// commits or rolls back with the change it describes. Never put secrets (raw keys, hashes) here.
// The one place that inserts an activity_event row: recordActivity runs the INSERT alone; a credit
// movement adds it to its own statement (activityInsert), one round trip for both.

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

/**
 * The INSERT of one event, for a statement of the caller's. With `onlyIfRowIn`, the row is written
 * only when that WITH item of the same statement returned a row (a movement's `entry`).
 */
export function activityInsert(input: ActivityInput, options: { id: string; createdAt: Date; onlyIfRowIn?: "entry" }): Prisma.Sql {
  const from = options.onlyIfRowIn ? Prisma.raw(`FROM ${options.onlyIfRowIn}`) : Prisma.empty;
  return Prisma.sql`
    INSERT INTO activity_event (id, account_id, actor, category, action, description, metadata, created_at)
    SELECT ${options.id}::uuid, ${input.accountId}::uuid, ${input.actor}, ${input.category}::"ActivityCategory", ${input.action}, ${input.description},
           ${JSON.stringify(input.metadata ?? {})}::jsonb, ${options.createdAt}
      ${from}`;
}

export async function recordActivity(tx: Tx, input: ActivityInput): Promise<{ id: string }> {
  const id = randomUUID();
  await tx.$executeRaw(activityInsert(input, { id, createdAt: new Date() }));
  return { id };
}
