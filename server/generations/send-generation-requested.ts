import "server-only";
import { inngest } from "../base/events/client";
import { generationDeadlineSet, generationRequested } from "../base/events/definitions";

/** The event id is the generation's: re-sending (the sweeper does) never starts a second run. */
export async function sendGenerationRequested(generationId: string, accountId: string, providers?: string[]) {
  await inngest.send(generationRequestedEvent(generationId, accountId, providers));
}

export function generationRequestedEvent(generationId: string, accountId: string, providers?: string[], deadlineAt?: Date | null) {
  return generationRequested.create(
    { generationId, accountId, ...(providers ? { providers } : {}), ...(deadlineAt ? { deadlineAt: deadlineAt.toISOString() } : {}) },
    { id: `generation-requested:${generationId}` },
  );
}

/** The durable deadline (enforce-generation-deadline): one per generation, by its id. */
export function generationDeadlineEvent(generationId: string, accountId: string, deadlineAt: Date) {
  return generationDeadlineSet.create(
    { generationId, accountId, deadlineAt: deadlineAt.toISOString() },
    { id: `generation-deadline:${generationId}` },
  );
}
