import { eventType } from "inngest";
import { z } from "zod";

// Every event Darkroom sends. Event ids are deterministic where a duplicate must be harmless
// (ARCHITECTURE §7): `generation-requested:<generation id>`, and so on.

/** A generation was created and credits reserved: run it through the provider chain. */
export const generationRequested = eventType("generation/requested", {
  schema: z.object({ generationId: z.string().uuid(), accountId: z.string().uuid() }),
});

/** A provider delivered a result by callback (webhook providers and the built-in renderers). */
export const providerResultReceived = eventType("provider/result.received", {
  schema: z.object({
    generationId: z.string().uuid(),
    provider: z.string(),
    predictionId: z.string(),
  }),
});

/** A generation reached a terminal state: fan out webhook deliveries (next issue). */
export const generationFinished = eventType("generation/finished", {
  schema: z.object({
    generationId: z.string().uuid(),
    accountId: z.string().uuid(),
    status: z.enum(["succeeded", "failed", "canceled"]),
  }),
});
