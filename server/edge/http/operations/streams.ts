import { accountEventsQuerySchema, generationEventsQuerySchema } from "../../contract/generations";
import { accountStreamEvents, generationStreamEvents, type LiveEventContract } from "../../contract/live-events";
import { defineOperation } from "../define-operation";

// The live streams (issue #31): `text/event-stream` answers, served by withApiKey like every /v1
// route (key, scope, rate limit and request log once, at the start; envelope errors before it).
// Kept out of v1Operations, whose every entry answers a JSON envelope (the registry's suites read
// each answer whole); the edge routes them from streamOperations, and the OpenAPI document lists
// them with their events (streamEvents).

const streamDescription =
  "Server-Sent Events: each event has `event:`, one `data:` line of JSON and an opaque `id:` (a resume snapshot may have none); resume after the last id with `Last-Event-ID` or `last_event_id` (for 24 h and 10,000 events; further back a `stream.reset` event comes first): the stream sends every later event once, in order, and never an id the client has. A `: heartbeat` comment every 15 s. Concurrent streams per account are capped by plan (ERR1009).";

export const streamGenerationEvents = defineOperation({
  operationId: "streamGenerationEvents",
  method: "GET",
  path: "/v1/content/{generation_id}/events",
  tag: "Generations",
  summary: "Watch one generation as it happens",
  description: `\`generation.snapshot\` (the record), then \`generation.processing\`, \`generation.attempt\` and one terminal event (\`generation.completed\`, \`generation.failed\` or \`generation.canceled\`), after which the stream ends. ${streamDescription}`,
  scope: "generation:read",
  query: generationEventsQuerySchema,
  response: { component: "GenerationRecord" },
  errors: ["ERR1001", "ERR1006", "ERR1009"],
});

export const streamAccountEvents = defineOperation({
  operationId: "streamAccountEvents",
  method: "GET",
  path: "/v1/content/events",
  tag: "Generations",
  summary: "Watch every generation of the account",
  description: `Every generation event of the key's account (\`generation.created\` included), optionally of one model, for as long as the client stays. ${streamDescription}`,
  scope: "generation:read",
  query: accountEventsQuerySchema,
  response: { component: "GenerationRecord" },
  errors: ["ERR1001", "ERR1009"],
});

/** Each stream's events (name → its data and whether it ends the stream), for the document. */
export const streamEvents: Readonly<Record<string, Readonly<Record<string, LiveEventContract>>>> = {
  [streamGenerationEvents.operationId]: generationStreamEvents,
  [streamAccountEvents.operationId]: accountStreamEvents,
};
