// Reads the error table's answer (`error.data.apiError`) off a failed tRPC call: its code, and
// which input fields it names, so forms can put the message next to the right control.

type ApiErrorBody = { code?: string; details?: { fields?: Array<{ field?: unknown; message?: unknown }> } };

function apiErrorOf(error: unknown): ApiErrorBody | null {
  const data = (error as { data?: { apiError?: ApiErrorBody } } | null | undefined)?.data;
  return data?.apiError ?? null;
}

export function apiErrorCode(error: unknown): string | null {
  return apiErrorOf(error)?.code ?? null;
}

/** field name → its message, for every field the error names. */
export function apiErrorFields(error: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const entry of apiErrorOf(error)?.details?.fields ?? []) {
    if (typeof entry.field === "string") fields[entry.field] = typeof entry.message === "string" ? entry.message : "is invalid";
  }
  return fields;
}

/** ERR1006: the id is unknown, malformed or another account's; ERR1012: no such model. Pages show "not found". */
export function isNotFound(error: unknown): boolean {
  const code = apiErrorCode(error);
  return code === "ERR1006" || code === "ERR1012";
}

/** A field message as a sentence: "must use https" → "Must use https." */
export function asSentence(message: string): string {
  const trimmed = message.trim();
  if (trimmed === "") return trimmed;
  const capitalized = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}
