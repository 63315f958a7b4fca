import "server-only";
import { inngest } from "../inngest/client";
import { generationFinished } from "../inngest/events";

/** One terminal event per generation: its id de-duplicates overlapping provider results. */
export async function sendGenerationFinished(generationId: string, accountId: string, status: "succeeded" | "failed" | "canceled") {
  await inngest.send(generationFinished.create({ generationId, accountId, status }, { id: `generation-finished:${generationId}` }));
}
