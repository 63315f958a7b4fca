import "server-only";
import { inTransaction } from "../../base/transaction";
import { emitGenerationEvent, terminalEventFor } from "../../generations/emit-generation-event";
import { inngest } from "../../base/events/client";
import { generationFinished } from "../../base/events/definitions";

// generation/finished → generation.completed | failed | canceled to every subscribed endpoint.
// The event kind comes from the generation row (the truth), and its event key
// `<event>:<generation id>` makes repeated or overlapping finish events one delivery per endpoint.
// The deliveries commit in the step's transaction; their runs are requested after it.

export const webhookFanOut = inngest.createFunction(
  { id: "webhook-fan-out", triggers: [generationFinished], retries: 4 },
  async ({ event, step }) =>
    step.run("emit", () =>
      inTransaction(async (tx) => {
        const { generationId } = event.data;
        const row = await tx.generation.findUnique({ where: { id: generationId }, select: { status: true } });
        const kind = row ? terminalEventFor(row.status) : null;
        if (!kind) return { skipped: row ? `generation is ${row.status}` : "generation not found" };
        const queued = await emitGenerationEvent(tx, generationId, kind);
        return {
          event: kind,
          created: queued?.created.length ?? 0,
          duplicates: queued?.duplicates.length ?? 0,
          deadLetters: queued?.deadLetters.length ?? 0,
        };
      }),
    ),
);
