import "server-only";
import { env } from "../base/env";
import { ApiError } from "../base/error-table";
import { planLimits, type PlanName } from "../plans/plan-limits";
import { claimStreamLease, releaseStreamLease } from "./stream-leases";

// The stream caps (docs/streams.md). /v1 streams: per account by plan (planLimits.liveStreams).
// Dashboard streams (/api/live): per session, per account, and per process. The account and
// session caps are leases in PostgreSQL, so they hold across instances; the process cap is this
// process's memory. A stream holds its slot from before its first byte until it ends.

/** Dashboard streams one signed-in browser session may hold (its tabs), across accounts. */
export const DASHBOARD_STREAMS_PER_SESSION = 10;
/** Dashboard streams of one account, over all its members' sessions. */
export const DASHBOARD_STREAMS_PER_ACCOUNT = 50;
/** Dashboard streams one process serves; LIVE_DASHBOARD_STREAMS_PER_PROCESS overrides it. */
export const DASHBOARD_STREAMS_PER_PROCESS = 2_000;

/** Gives the slot back (idempotent). */
export type ReleaseSlot = () => void;

function releaseOnce(leaseId: string, after: () => void = () => {}): ReleaseSlot {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    releaseStreamLease(leaseId);
    after();
  };
}

/** Takes one of the account's /v1 stream slots or throws ERR1009. */
export async function claimStreamSlot(accountId: string, plan: PlanName): Promise<ReleaseSlot> {
  const limit = planLimits[plan].liveStreams;
  const answer = await claimStreamLease({ kind: "api", accountId, accountLimit: limit });
  if ("refused" in answer)
    throw new ApiError("ERR1009", `At most ${limit} concurrent event streams on the ${plan} plan.`, {
      limit,
      open_streams: answer.held,
      kind: "event_stream",
    });
  return releaseOnce(answer.leaseId);
}

export type DashboardSlot = { release: ReleaseSlot } | { refused: "process" | "account" | "session"; limit: number };

const globalProcess = globalThis as unknown as { darkroomDashboardStreams?: { held: number } };

function processSlots() {
  globalProcess.darkroomDashboardStreams ??= { held: 0 };
  return globalProcess.darkroomDashboardStreams;
}

/** Takes a dashboard stream slot for `sessionId` in `accountId`, or says which cap is full. */
export async function claimDashboardSlot(input: { accountId: string; sessionId: string }): Promise<DashboardSlot> {
  const slots = processSlots();
  const processLimit = env().LIVE_DASHBOARD_STREAMS_PER_PROCESS ?? DASHBOARD_STREAMS_PER_PROCESS;
  if (slots.held >= processLimit) return { refused: "process", limit: processLimit };
  slots.held += 1;
  const giveBack = () => (slots.held -= 1);
  try {
    const answer = await claimStreamLease({
      kind: "dashboard",
      accountId: input.accountId,
      accountLimit: DASHBOARD_STREAMS_PER_ACCOUNT,
      session: { sessionId: input.sessionId, limit: DASHBOARD_STREAMS_PER_SESSION },
    });
    if ("refused" in answer) {
      giveBack();
      return { refused: answer.refused, limit: answer.limit };
    }
    return { release: releaseOnce(answer.leaseId, giveBack) };
  } catch (error) {
    giveBack();
    throw error;
  }
}
