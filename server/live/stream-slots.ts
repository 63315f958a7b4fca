import "server-only";
import { ApiError } from "../error-table";
import { planLimits, type PlanName } from "../plans/plan-limits";

// Concurrent /v1 streams per account, capped by plan (planLimits.liveStreams) on each instance:
// a stream holds its slot from before its first byte until it ends.

const globalSlots = globalThis as unknown as { darkroomStreamSlots?: Map<string, number> };

function slots() {
  globalSlots.darkroomStreamSlots ??= new Map();
  return globalSlots.darkroomStreamSlots;
}

/** Takes a slot or throws ERR1009; answers the release (idempotent). */
export function claimStreamSlot(accountId: string, plan: PlanName): () => void {
  const limit = planLimits[plan].liveStreams;
  const held = slots().get(accountId) ?? 0;
  if (held >= limit) throw new ApiError("ERR1009", `At most ${limit} concurrent event streams on the ${plan} plan.`, { limit, open_streams: held, kind: "event_stream" });
  slots().set(accountId, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (slots().get(accountId) ?? 1) - 1;
    if (left <= 0) slots().delete(accountId);
    else slots().set(accountId, left);
  };
}
