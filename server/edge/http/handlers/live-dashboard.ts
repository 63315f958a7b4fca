import "server-only";
import { findMembership } from "../../../accounts/find-membership";
import { fromOtherSite } from "../../../auth/same-origin";
import { readSignedInSession } from "../../../auth/signed-in-session";
import { db } from "../../../base/db";
import { readsLiveFeed } from "../../../live/dashboard-access";
import { streamDashboardEvents } from "../../../live/stream-dashboard-events";
import type { PlanName } from "../../../plans/plan-limits";

// GET /api/live?account=<id>: the dashboard's live feed, the account's generation events for a
// signed-in member (the generations page, a generation's detail, the overview and a key's detail
// refresh from it instead of polling). Plain answers before the stream starts: 403 for another
// site's request, 401 without a live session, 404 for an account the user is not in (in a role that reads it), 429 when a
// stream cap is full (docs/streams.md). The stream ends when the session loses its access.

/** Seconds a refused tab waits before it asks again (a slot frees when another tab closes). */
const RETRY_AFTER_SECONDS = 5;

export async function dashboardEventStream(request: Request): Promise<Response> {
  if (fromOtherSite(request)) return new Response(null, { status: 403 });
  const accountId = new URL(request.url).searchParams.get("account") ?? "";
  const session = await readSignedInSession(request);
  if (!session) return new Response(null, { status: 401 });
  const membership = await findMembership(db, { accountId, userId: session.userId });
  if (!membership || !readsLiveFeed(membership.role)) return new Response(null, { status: 404 });
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } });
  const stream = await streamDashboardEvents({ accountId, plan: account.plan as PlanName, session, signal: request.signal });
  if ("refused" in stream) return new Response(null, { status: 429, headers: { "retry-after": String(RETRY_AFTER_SECONDS) } });
  return new Response(stream.body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
}
