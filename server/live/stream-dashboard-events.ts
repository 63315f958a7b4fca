import "server-only";
import type { PlanName } from "../plans/plan-limits";
import type { DashboardSession } from "./dashboard-access";
import { openEventStream } from "./open-event-stream";
import { claimDashboardSlot } from "./stream-slots";

// The dashboard's live feed (GET /api/live): the account's generation events for a member's
// session, for as long as the tab stays and the session keeps its access (the hub's tick checks
// it; a sign-out or a removal ends it at once). Capped per session, per account and per process.

export type DashboardStream = { body: ReadableStream<Uint8Array> } | { refused: "process" | "account" | "session"; limit: number };

export async function streamDashboardEvents(input: {
  accountId: string;
  plan: PlanName;
  session: DashboardSession;
  signal: AbortSignal;
}): Promise<DashboardStream> {
  const slot = await claimDashboardSlot({ accountId: input.accountId, sessionId: input.session.sessionId });
  if ("refused" in slot) return slot;
  try {
    const filter = { accountId: input.accountId, plan: input.plan, keyHash: null, session: input.session, onClose: slot.release };
    return { body: await openEventStream(filter, null, input.signal, async () => ({ first: [], end: false })) };
  } catch (error) {
    slot.release();
    throw error;
  }
}
