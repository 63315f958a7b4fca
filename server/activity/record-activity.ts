import type { Tx } from "../db";
import type { ActivityCategory } from "../generated/prisma/enums";
import type { Prisma } from "../generated/prisma/client";

// The audit feed (activity events). Written inside the caller's transaction so the event
// commits or rolls back with the change it describes. Never put secrets (raw keys, hashes) here.

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

export async function recordActivity(tx: Tx, input: ActivityInput): Promise<{ id: string }> {
  const event = await tx.activityEvent.create({
    data: {
      accountId: input.accountId,
      actor: input.actor,
      category: input.category,
      action: input.action,
      description: input.description,
      metadata: input.metadata ?? {},
    },
    select: { id: true },
  });
  return event;
}
