import { eventNameMatches } from "./event-matcher";
import type { RunResult } from "./run-store";
import type { EventPayload, FunctionDefinition, RunRecord } from "./types";

// The internal events Inngest emits when a run ends: `inngest/function.failed` (what onFailure
// handlers, served as `<fn id>-failure`, are triggered by) and `inngest/function.finished`.
// Written only when a served function listens; never for a failure handler's own runs.

export const FUNCTION_FAILED = "inngest/function.failed";
export const FUNCTION_FINISHED = "inngest/function.finished";

function listened(functions: Iterable<FunctionDefinition>, name: string) {
  for (const fn of functions) if (fn.triggers.some((trigger) => "event" in trigger && eventNameMatches(trigger.event, name))) return true;
  return false;
}

export function followUpEvents(functions: Iterable<FunctionDefinition>, run: RunRecord, result: RunResult, now: number): EventPayload[] {
  if (run.functionId.endsWith("-failure")) return [];
  const [event] = run.events;
  const base = { function_id: run.functionId, run_id: run.id, event };
  const events: EventPayload[] = [];
  if (result.status === "failed" && listened(functions, FUNCTION_FAILED)) {
    events.push({ id: `${FUNCTION_FAILED}:${run.id}`, name: FUNCTION_FAILED, ts: now, data: { ...base, error: result.error } });
  }
  if (listened(functions, FUNCTION_FINISHED)) {
    const outcome = result.status === "failed" ? { error: result.error } : { result: result.output };
    events.push({ id: `${FUNCTION_FINISHED}:${run.id}`, name: FUNCTION_FINISHED, ts: now, data: { ...base, ...outcome } });
  }
  return events;
}
