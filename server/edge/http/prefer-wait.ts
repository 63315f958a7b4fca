import "server-only";
import { invalidRequest } from "../../base/error-table";

// `Prefer: wait` (RFC 7240, as Replicate's API takes it) on a create: hold the response until the
// generation finishes, at most `wait=N` seconds (1 to 60; `wait` alone is 60). Other preferences
// are ignored, as the RFC says; a wait that is not a whole number from 1 to 60 is ERR1001.

export const MAX_WAIT_SECONDS = 60;

/** The seconds asked for, or null when the request does not ask to wait. */
export function readPreferWait(headers: Headers): number | null {
  const header = headers.get("prefer");
  if (!header) return null;
  for (const preference of header.split(",")) {
    const [token = "", ...rest] = preference.split(";")[0]!.split("=");
    if (token.trim().toLowerCase() !== "wait") continue;
    if (rest.length === 0) return MAX_WAIT_SECONDS;
    const value = rest
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
    const seconds = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
    if (!(seconds >= 1 && seconds <= MAX_WAIT_SECONDS)) {
      throw invalidRequest(`The Prefer header's wait must be a whole number of seconds from 1 to ${MAX_WAIT_SECONDS}.`, [
        { field: "Prefer", message: `wait must be 1 to ${MAX_WAIT_SECONDS} seconds` },
      ]);
    }
    return seconds;
  }
  return null;
}
