import "server-only";
import { inngest } from "../inngest/client";
import { generationFinished } from "../inngest/events";
import { log } from "../runtime/log";
import { inTransaction } from "../transaction";
import { emitGenerationEvent, terminalEventFor } from "../webhooks/emit-generation-event";

/**
 * After a terminal transition has committed: the webhook deliveries are queued at once (their
 * attempts start without waiting for another run), then the terminal event goes out. The
 * webhook-fan-out run it starts queues the same deliveries again under the same event key, so
 * it changes nothing when this worked and queues them when this failed (it is only logged here:
 * a webhook problem never undoes a finished generation). The event's id de-duplicates overlapping
 * provider results.
 */
export async function sendGenerationFinished(generationId: string, accountId: string, status: "succeeded" | "failed" | "canceled") {
  const kind = terminalEventFor(status);
  if (kind) {
    await inTransaction((tx) => emitGenerationEvent(tx, generationId, kind)).catch((error: unknown) => {
      log.warn("terminal webhook not queued directly; webhook-fan-out will", { generationId, error: error instanceof Error ? error.message : String(error) });
    });
  }
  await inngest.send(generationFinished.create({ generationId, accountId, status }, { id: `generation-finished:${generationId}` }));
}
