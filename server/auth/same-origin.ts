import "server-only";
import { appUrl } from "../env";

// A form POST that signs someone in must come from our own pages, or another site could sign a
// visitor in as an address of its choosing (login CSRF). Browsers send Origin on every POST and
// Sec-Fetch-Site where they support it; neither can be set by a page.

export function fromOwnPage(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "same-origin") return true;
  return request.headers.get("origin") === new URL(appUrl()).origin;
}
