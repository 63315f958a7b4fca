import { z } from "zod";
import { creditsSchema, uuidSchema } from "./common";
import { generationRecordSchema } from "./generations";

// The events of the two live streams (docs/streams.md): each event's name and the schema of its
// `data:` line. The OpenAPI document lists them per stream, and the SDKs' stream methods and event
// types are generated from it.

export const generationAttemptEventSchema = z.object({
  generation_id: uuidSchema,
  provider: z.string().describe("The provider tried."),
  attempt: z.int().min(1).describe("1 for the first provider, 2 for the next, ..."),
  outcome: z.enum(["started", "failed", "succeeded"]),
  error_code: z.string().nullable().optional().describe("With `failed`: the attempt's ERR4xxx code."),
});

/** The record and the refund, as the webhook carries it (in the document: the record's component and these fields). */
export const generationCanceledEventSchema = z.intersection(
  generationRecordSchema,
  z.object({
    credits_refunded: z.boolean().describe("Whether the cancel returned credits to the balance."),
    credits_refunded_amount: creditsSchema.min(0).describe("Credits returned; 0 when none were held."),
  }),
);

export const streamResetEventSchema = z
  .looseObject({})
  .describe(
    "The `Last-Event-ID` was too far back: the events between it and this one are no longer kept. Its `id:` is where the stream goes on from; read the state again (`GET /v1/content/{generation_id}`) rather than relying on the missed events.",
  );

export type LiveEventComponent = "GenerationRecord" | "GenerationAttemptEvent" | "GenerationCanceledEvent" | "StreamResetEvent";

/** One event a stream may send: its data's component, and whether the stream ends after it. */
export type LiveEventContract = { data: LiveEventComponent; description: string; endsStream?: boolean };

const recordEvent = (description: string, endsStream?: boolean): LiveEventContract => ({
  data: "GenerationRecord",
  description,
  ...(endsStream ? { endsStream } : {}),
});

const changes = (endsStream: boolean): Record<string, LiveEventContract> => ({
  "generation.processing": recordEvent("A provider accepted the job: the record, `processing`."),
  "generation.attempt": {
    data: "GenerationAttemptEvent",
    description: "A provider attempt started, failed or succeeded: the failover chain as it happens.",
  },
  "generation.completed": recordEvent("The record, `succeeded`, with its output links.", endsStream),
  "generation.failed": recordEvent("The record, `failed`, with `generation_error` and `generation_error_code`.", endsStream),
  "generation.canceled": {
    data: "GenerationCanceledEvent",
    description: "The record, `canceled`, with the refund, as the webhook carries it.",
    ...(endsStream ? { endsStream } : {}),
  },
});

/** `GET /v1/content/{generation_id}/events`, in the order they come; the terminal events end it. */
export const generationStreamEvents: Record<string, LiveEventContract> = {
  "generation.snapshot": recordEvent(
    "First: the record as `GET /v1/content/{generation_id}` answers it. On a resume it may carry no `id:` (keep the last one); it never carries an id the client has.",
  ),
  ...changes(true),
};

/** `GET /v1/content/events`: every generation of the account; it ends only when the client leaves. */
export const accountStreamEvents: Record<string, LiveEventContract> = {
  "generation.created": recordEvent("A generation was created: the record, `pending`."),
  ...changes(false),
  // Only the account stream resets; a generation's stream resumed too far back starts again with a snapshot.
  "stream.reset": { data: "StreamResetEvent", description: streamResetEventSchema.description ?? "" },
};
