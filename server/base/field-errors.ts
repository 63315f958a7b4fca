import type { FieldErrors } from "./error-table";

// Schema issues (zod's, or any Standard Schema's) as ERR1001 `details.fields`, named the way /v1
// names them, for /v1 bodies and queries and the dashboard's tRPC inputs alike: one entry per
// offending field, its first problem; nested fields dotted and array items indexed
// (`page.limit`, `thresholds[1]`); an unknown key is named itself ("is not a recognized field");
// a problem with the whole input is named `whole` ("body" on /v1, "input" on tRPC).

type PathPart = PropertyKey | { key: PropertyKey };
export type SchemaIssue = { code?: string; path?: ReadonlyArray<PathPart>; message: string; keys?: readonly string[] };

export function fieldErrorsFromIssues(issues: readonly SchemaIssue[], whole = "body"): FieldErrors {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const path = (issue.path ?? []).map((part) => (typeof part === "object" && part !== null && "key" in part ? part.key : part));
    if (issue.code === "unrecognized_keys" && issue.keys) {
      for (const key of issue.keys) byField.set(fieldName([...path, key], whole), "is not a recognized field");
    } else if (!byField.has(fieldName(path, whole))) {
      byField.set(fieldName(path, whole), issue.message);
    }
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

function fieldName(path: readonly PropertyKey[], whole: string): string {
  if (path.length === 0) return whole;
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index ? "." : ""}${String(part)}`)).join("");
}
