import "server-only";
import { db } from "../../db";
import { emitGenerationEvent, terminalEventFor } from "../../webhooks/emit-generation-event";
import { inngest } from "../client";
import { generationFinished } from "../events";

// generation/finished → generation.completed | failed | canceled to every subscribed endpoint.
// The event kind comes from the generation row (the truth), and its event key
// `<event>:<generation id>` makes repeated or overlapping finish events one delivery per endpoint.

export const webhookFanOut = inngest.createFunction({ id: "webhook-fan-out", triggers: [generationFinished], retries: 4 }, async ({ event, step }) =>
  step.run("emit", async () => {
    const { generationId } = event.data;
    const row = await db.generation.findUnique({ where: { id: generationId }, select: { status: true } });
    const kind = row ? terminalEventFor(row.status) : null;
    if (!kind) return { skipped: row ? `generation is ${row.status}` : "generation not found" };
    const queued = await emitGenerationEvent(generationId, kind);
    return { event: kind, created: queued?.created.length ?? 0, duplicates: queued?.duplicates.length ?? 0, deadLetters: queued?.deadLetters.length ?? 0 };
  }),
);
