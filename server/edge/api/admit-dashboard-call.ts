import "server-only";
import type { TRPCError } from "@trpc/server";
import { fromOwnPage } from "../../auth/same-origin";
import { ApiError, toApiError } from "../../base/error-table";
import { readCappedBody } from "../http/read-capped-body";
import { toTRPCError } from "./trpc-errors";

// What a /api/trpc request must be before tRPC sees it. A mutation (POST) comes from our own pages:
// sent as JSON (a cross-site form can post form data or plain text without asking, never JSON) and
// with our own Origin (or Sec-Fetch-Site: same-origin); else another site could act for a signed-in
// visitor. Its body is read only up to the cap: a larger one is refused before it is read.

export type DashboardCall = { admitted: Request } | { refused: TRPCError };

function isJson(request: Request): boolean {
  const mediaType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return mediaType === "application/json";
}

export async function admitDashboardCall(request: Request): Promise<DashboardCall> {
  if (request.method !== "POST") return { admitted: request };
  if (!fromOwnPage(request))
    return {
      refused: toTRPCError(new ApiError("ERR1003", "Cross-site requests are refused: the dashboard's changes come from its own pages.")),
    };
  if (!isJson(request)) return { refused: toTRPCError(new ApiError("ERR1003", "Changes are sent as application/json.")) };
  try {
    const body = await readCappedBody(request);
    return { admitted: new Request(request.url, { method: "POST", headers: request.headers, body, signal: request.signal }) };
  } catch (error) {
    return { refused: toTRPCError(toApiError(error)) };
  }
}

/**
 * The request tRPC answers in place of a refused one: the same URL and method, as JSON with no
 * body, so tRPC names the same procedures (a batch stays a batch) and reads nothing.
 */
export function bodilessStandIn(request: Request): Request {
  return new Request(request.url, { method: request.method, headers: { "content-type": "application/json" } });
}
