import "server-only";
import { appUrl } from "../base/env";

// A form POST that signs someone in must come from our own pages, or another site could sign a
// visitor in as an address of its choosing (login CSRF). Browsers send Origin on every POST and
// Sec-Fetch-Site where they support it; neither can be set by a page.

export function fromOwnPage(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "same-origin") return true;
  return request.headers.get("origin") === new URL(appUrl()).origin;
}

/**
 * A GET that a browser sent for another site's page (the dashboard's live feed refuses it). The
 * same two headers: a browser marks every cross-origin fetch or EventSource with Origin, and sends
 * Sec-Fetch-Site where it supports it; a request with neither (curl, a same-origin GET in an older
 * browser) is no other site's.
 */
export function fromOtherSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin" && site !== "none") return true;
  const origin = request.headers.get("origin");
  return origin !== null && origin !== new URL(appUrl()).origin;
}
