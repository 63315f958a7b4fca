import "server-only";
import { invalidRequest } from "../../base/error-table";
import { parseCancelAfter } from "../../generations/deadline/parse-cancel-after";

// The create routes' `Cancel-After` header: the milliseconds it allows, or null without one; a
// value that is not a duration from 5 s to 24 h is ERR1001 naming the header, before any reservation.

export function readCancelAfter(headers: Headers): number | null {
  const header = headers.get("cancel-after");
  if (header === null) return null;
  const parsed = parseCancelAfter(header);
  if (parsed.ok) return parsed.ms;
  throw invalidRequest(`The Cancel-After header ${parsed.message}.`, [{ field: "Cancel-After", message: parsed.message }]);
}
