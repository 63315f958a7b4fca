import { log } from "../../base/log";
import { evaluateExpression, eventNameMatches } from "./event-matcher";
import type { EventPayload, PendingOp, RunRecord, RunStatus, StepMemo } from "./types";

// Pure changes to a run's state: memoizing steps, the sleeps and waits it is parked on, and
// which pending wait an incoming event resolves.

export function memoize(run: RunRecord, stepId: string, memo: StepMemo) {
  run.steps[stepId] = memo;
  if (!run.stack.includes(stepId)) run.stack.push(stepId);
}

/** Adds a sleep or wait the SDK reported, unless it is already pending or memoized. */
export function addPending(run: RunRecord, op: PendingOp) {
  if (run.steps[op.id] || run.pending.some((pending) => pending.id === op.id)) return;
  run.pending.push(op);
}

function dueAt(op: PendingOp): number {
  return op.op === "Sleep" ? op.wakeAt : op.timeoutAt;
}

/** Ends the sleeps and wait timeouts that are due (memoized as null); true when any did. */
export function resolveDuePending(run: RunRecord, now: number): boolean {
  const due = run.pending.filter((op) => dueAt(op) <= now);
  for (const op of due) memoize(run, op.id, { type: "data", data: null });
  run.pending = run.pending.filter((op) => dueAt(op) > now);
  if (due.length > 0) run.status = "running";
  return due.length > 0;
}

/** Where a run with pending sleeps or waits rests: waiting if any wait, until the earliest end. */
export function parkedState(run: RunRecord): { status: RunStatus; wakeAt: number | null } {
  if (run.pending.length === 0) return { status: "running", wakeAt: run.wakeAt };
  return {
    status: run.pending.some((op) => op.op === "WaitForEvent") ? "waiting" : "sleeping",
    wakeAt: Math.min(...run.pending.map(dueAt)),
  };
}

export function waitEventNames(pending: PendingOp[]): string[] {
  return [...new Set(pending.flatMap((op) => (op.op === "WaitForEvent" ? [op.event] : [])))];
}

function waitMatches(run: RunRecord, op: PendingOp, event: EventPayload, receivedAt: number): boolean {
  if (op.op !== "WaitForEvent" || !eventNameMatches(op.event, event.name)) return false;
  if (receivedAt < op.since || receivedAt > op.timeoutAt) return false;
  if (!op.if) return true;
  try {
    return evaluateExpression(op.if, { event: run.events[0], async: event });
  } catch (error) {
    log.warn("waitForEvent expression failed", { runId: run.id, error: error instanceof Error ? error.message : String(error) });
    return false;
  }
}

/** Resolves the first pending wait this event satisfies; true when one was. */
export function resolveWait(run: RunRecord, event: EventPayload, receivedAt: number, now: number): boolean {
  const op = run.pending.find((candidate) => waitMatches(run, candidate, event, receivedAt));
  if (!op) return false;
  memoize(run, op.id, { type: "data", data: event });
  run.pending = run.pending.filter((pending) => pending !== op);
  // A run parked for a retry keeps its retry time; a sleeping or waiting one resumes now.
  if (run.status !== "running") {
    run.status = "running";
    run.wakeAt = now;
  }
  return true;
}
