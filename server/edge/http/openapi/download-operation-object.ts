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

// A download's Operation Object: its 200 is a file (`text/csv`), sent as an attachment and
// streamed; `x-rows` names, per `format`, the component one row follows (its properties are the
// columns, in order). Errors are the JSON error envelope, as everywhere.

export const ROWS = "x-rows";

export function downloadOperationObject(entry: V1Operation, shared: ResponseComponents) {
  const file = entry.download;
  if (!file) throw new Error(`${entry.operationId} is not a download`);
  return {
    ...operationHead(entry),
    parameters: [...pathParameters(entry), ...queryParameters(entry)],
    responses: {
      "200": {
        description:
          "The file, streamed as it is read (`Content-Disposition: attachment; filename=…`); errors before it starts are the JSON error envelope.",
        headers: {
          ...responseHeaders(entry, 200),
          "Content-Disposition": { description: '`attachment; filename="…"`.', schema: { type: "string" } },
        },
        content: {
          [file.contentType]: {
            schema: { type: "string", description: "RFC 4180 CSV in UTF-8: a header row, then one row per record, CRLF line ends." },
            [ROWS]: Object.fromEntries(Object.entries(file.rows).map(([format, component]) => [format, ref("schemas", component)])),
          },
        },
      },
      ...errorResponses(entry, shared),
    },
  };
}
