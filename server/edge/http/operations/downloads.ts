import { usageExportQuerySchema } from "../../contract/usage-export";
import { defineOperation } from "../define-operation";

// The downloads: answers that are files (text/csv), streamed as they are read, never an envelope
// on success. Served by withApiKey like every /v1 route (key, scope, rate limit and request log
// once, as the download starts; envelope errors before it). Kept out of v1Operations, whose every
// entry answers a JSON envelope; the edge routes them from downloadOperations and the OpenAPI
// document lists them with their row components (downloadRows).

export const exportUsage = defineOperation({
  operationId: "exportUsage",
  method: "GET",
  path: "/v1/usage/export",
  tag: "Account",
  summary: "Export usage as CSV",
  description:
    "The account's generations in the region this address serves, one row per UTC day × API key × model × provider, for the days `from` to `to` (inclusive, UTC), as `text/csv` (RFC 4180, a header row, CRLF line ends) sent as an attachment and streamed as it is read. `format=csv`: Darkroom's columns (`UsageExportRow`); `format=focus`: the FinOps FOCUS 1.0 columns (`UsageExportFocusRow`), credits as USD. Cost counts what was charged or is still reserved; failed and canceled generations were refunded. The range may start no earlier than the plan keeps generation records (ERR1001 naming `from`).",
  scope: "account:read",
  query: usageExportQuerySchema,
  response: { component: "UsageExportRow" },
  errors: ["ERR1001"],
});

/** Each download's content type and the components of its rows, per `format`, for the document. */
export const downloadRows: Readonly<
  Record<string, { contentType: string; rows: Readonly<Record<string, "UsageExportRow" | "UsageExportFocusRow">> }>
> = {
  [exportUsage.operationId]: { contentType: "text/csv", rows: { csv: "UsageExportRow", focus: "UsageExportFocusRow" } },
};
