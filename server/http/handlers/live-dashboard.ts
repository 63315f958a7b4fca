import "server-only";
import { accountScope } from "../../account-scope";
import { findMembership } from "../../accounts/find-membership";
import { currentUserId } from "../../auth";
import { db } from "../../db";
import { streamAccountEvents } from "../../live/stream-account-events";
import type { PlanName } from "../../plans/plan-limits";

// GET /api/live?account=<id>: the dashboard's live feed, the account's generation events for a
// signed-in member (the generations page, a generation's detail, the overview and a key's detail
// refresh from it instead of polling). A plain 401/404 before the stream starts.

export async function dashboardEventStream(request: Request): Promise<Response> {
  const accountId = new URL(request.url).searchParams.get("account") ?? "";
  const userId = await currentUserId();
  if (!userId) return new Response(null, { status: 401 });
  const membership = await findMembership(db, { accountId, userId });
  if (!membership) return new Response(null, { status: 404 });
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { plan: true } });
  const body = await streamAccountEvents(accountScope(accountId), { plan: account.plan as PlanName, keyHash: null, lastEventId: null, signal: request.signal });
  return new Response(body, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" },
  });
}
