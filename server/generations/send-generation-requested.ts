import "server-only";
import { inngest } from "../events/client";
import { generationRequested } from "../events/definitions";

/** The event id is the generation's: re-sending (the sweeper does) never starts a second run. */
export async function sendGenerationRequested(generationId: string, accountId: string, providers?: string[]) {
  await inngest.send(generationRequestedEvent(generationId, accountId, providers));
}

export function generationRequestedEvent(generationId: string, accountId: string, providers?: string[]) {
  return generationRequested.create({ generationId, accountId, ...(providers ? { providers } : {}) }, { id: `generation-requested:${generationId}` });
}
