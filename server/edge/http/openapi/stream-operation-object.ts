import "server-only";
import {
  errorResponses,
  operationHead,
  pathParameters,
  queryParameters,
  ref,
  responseHeaders,
  type ResponseComponents,
} from "./operation-object";
import type { V1Operation } from "./routes";

// A live stream's Operation Object: its 200 is `text/event-stream`, and `x-item-schema` (OpenAPI
// 3.2's `itemSchema`, as an extension of this 3.1 document) describes one event per member of its
// oneOf: the event's name, its id, and its `data:` line as JSON of a component schema.
// `x-ends-stream` marks the events after which the server ends the stream.

export const ITEM_SCHEMA = "x-item-schema";
export const ENDS_STREAM = "x-ends-stream";

function eventSchemas(entry: V1Operation) {
  return Object.entries(entry.events ?? {}).map(([name, event]) => ({
    title: name,
    description: event.description,
    type: "object",
    properties: {
      event: { type: "string", const: name },
      id: {
        type: "string",
        description: "Opaque (compare for equality only): send the last one back in `Last-Event-ID` to resume after it.",
      },
      data: { type: "string", contentMediaType: "application/json", contentSchema: ref("schemas", event.data) },
      retry: { type: "integer", minimum: 0, description: "Milliseconds to wait before reconnecting, when the server says." },
    },
    // A resume snapshot may come without an id: the client keeps the last one it had.
    required: name === "generation.snapshot" ? ["event", "data"] : ["event", "id", "data"],
    ...(event.endsStream ? { [ENDS_STREAM]: true } : {}),
  }));
}

export function streamOperationObject(entry: V1Operation, shared: ResponseComponents) {
  return {
    ...operationHead(entry),
    parameters: [...pathParameters(entry), ...queryParameters(entry), ref("parameters", "LastEventId")],
    responses: {
      "200": {
        description: "The event stream; errors before it starts are the JSON error envelope.",
        headers: responseHeaders(entry, 200),
        content: {
          "text/event-stream": {
            schema: {
              type: "string",
              description:
                "Server-Sent Events: `id:`, `event:` and one `data:` line of JSON, a blank line after each; `: heartbeat` comments between.",
            },
            [ITEM_SCHEMA]: { oneOf: eventSchemas(entry) },
          },
        },
      },
      ...errorResponses(entry, shared),
    },
  };
}
