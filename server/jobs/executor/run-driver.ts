import { resolveTime, retryAfterTime } from "./durations";
import { addPending, memoize, parkedState, resolveDuePending } from "./run-state";
import type { RunResult, RunStore } from "./run-store";
import { asSerializedError, callRequestBody } from "./step-protocol";
import {
  FUNCTION_ATTEMPT_KEY,
  type CallOutcome,
  type EventPayload,
  type FunctionDefinition,
  type OutgoingOp,
  type RunRecord,
  type SerializedError,
  type StepMemo,
} from "./types";

// Drives one claimed run through Call Requests until it parks (sleep, wait, retry later) or ends.
// Each reply is applied to the run and saved with the next one (see driveRun): a step's result is
// memoized, a planned step is asked for by id, a step error is retried at its Retry-After or
// with backoff until the attempts run out (then memoized as the error the function sees).

/**
 * Inngest's limits on a run (https://www.inngest.com/docs/usage-limits/inngest): 1,000 steps,
 * 4 MiB returned by one step, 32 MiB of run state (events, step data). Enforced here the way
 * Inngest does, so a function that runs here does not fail there.
 */
export type RunLimits = { maxSteps: number; maxStepOutputBytes: number; maxStateBytes: number };
export const RUN_LIMITS: RunLimits = { maxSteps: 1000, maxStepOutputBytes: 4 * 1024 * 1024, maxStateBytes: 32 * 1024 * 1024 };

export type DriverDeps = {
  now(): number;
  limits(): RunLimits;
  fn(functionId: string): FunctionDefinition | undefined;
  call(functionId: string, stepId: string, body: unknown): Promise<CallOutcome>;
  store(): RunStore;
  backoff(failedAttempts: number): number;
  stopping(): boolean;
  followUps(run: RunRecord, result: RunResult): EventPayload[];
  afterPark(run: RunRecord): Promise<void>;
  afterFinish(followUps: EventPayload[]): void;
};

type Next = { kind: "continue" } | { kind: "park" } | { kind: "retry"; retryAfter: string | null; failedAttempts: number };

const unsupported = (op: string) => ({
  name: "EmbeddedExecutorError",
  message: `step operation ${op} is not supported by the embedded executor`,
});

/** Applies the ops of a 206 reply to the run and says what to do next. */
/** A step's result as memoized: its data, or the error Inngest gives a step whose output is over the limit. */
function stepResult(op: OutgoingOp, maxBytes: number): StepMemo {
  const bytes = Buffer.byteLength(JSON.stringify({ data: op.data ?? null }));
  if (bytes <= maxBytes) return { type: "data", data: op.data ?? null };
  return {
    type: "error",
    error: { name: "StepOutputTooLargeError", message: `step output size is greater than the limit: ${bytes} bytes, at most ${maxBytes}` },
  };
}

/**
 * Steps the SDK ran within a Call Request and checkpointed before going on (async checkpointing):
 * memoized as the same ops in a reply would be.
 */
export function memoizeCheckpointed(run: RunRecord, ops: OutgoingOp[], maxStepOutputBytes: number): void {
  for (const op of ops) {
    if (op.op === "StepRun" || op.op === "Step") memoize(run, op.id, stepResult(op, maxStepOutputBytes));
    else if (op.op === "StepFailed") memoize(run, op.id, { type: "error", error: asSerializedError(op.error, "step failed") });
    else continue;
    delete run.attempts[op.id];
  }
}

function applyOps(
  run: RunRecord,
  ops: OutgoingOp[],
  retryAfter: string | null,
  context: { attempt: number; sentAt: number; now: number; maxAttempts: number; maxStepOutputBytes: number },
): Next {
  const planned: OutgoingOp[] = [];
  let progressed = false;
  let retry: Next | null = null;
  for (const op of ops) {
    try {
      if (op.op === "StepRun" || op.op === "Step") {
        memoize(run, op.id, stepResult(op, context.maxStepOutputBytes));
        progressed = true;
      } else if (op.op === "StepFailed") {
        memoize(run, op.id, { type: "error", error: asSerializedError(op.error, "step failed") });
        progressed = true;
      } else if (op.op === "StepError") {
        const failedAttempts = context.attempt + 1;
        if (failedAttempts >= context.maxAttempts) {
          memoize(run, op.id, { type: "error", error: asSerializedError(op.error, "step failed") });
          progressed = true;
        } else {
          run.attempts[op.id] = failedAttempts;
          run.nextStepId = op.id;
          retry = { kind: "retry", retryAfter, failedAttempts };
        }
      } else if (op.op === "StepPlanned") {
        planned.push(op);
      } else if (op.op === "Sleep") {
        addPending(run, { id: op.id, op: "Sleep", wakeAt: resolveTime(op.opts?.duration ?? op.name, context.now) });
      } else if (op.op === "WaitForEvent") {
        const condition = op.opts?.if;
        addPending(run, {
          id: op.id,
          op: "WaitForEvent",
          event: String(op.opts?.event ?? op.name),
          ...(typeof condition === "string" && condition ? { if: condition } : {}),
          timeoutAt: resolveTime(op.opts?.timeout, context.now),
          since: context.sentAt,
        });
      } else if (!["DeferAdd", "DeferAbort", "DiscoveryRequest", "StepNotFound"].includes(op.op)) {
        memoize(run, op.id, { type: "error", error: unsupported(op.op) });
        progressed = true;
      }
    } catch (error) {
      memoize(run, op.id, {
        type: "error",
        error: asSerializedError(error instanceof Error ? { name: error.name, message: error.message } : error, "bad step"),
      });
      progressed = true;
    }
  }
  if (retry) return retry;
  if (progressed) {
    for (const id of Object.keys(run.steps)) delete run.attempts[id];
    delete run.attempts[FUNCTION_ATTEMPT_KEY];
    run.nextStepId = null;
    return { kind: "continue" };
  }
  const [first] = planned;
  if (first) {
    if (planned.length > 1) run.disableImmediateExecution = true;
    run.nextStepId = first.id;
    return { kind: "continue" };
  }
  if (run.pending.length > 0) return { kind: "park" };
  run.nextStepId = null;
  return {
    kind: "retry",
    retryAfter: null,
    failedAttempts: (run.attempts[FUNCTION_ATTEMPT_KEY] = (run.attempts[FUNCTION_ATTEMPT_KEY] ?? 0) + 1),
  };
}

async function park(deps: DriverDeps, run: RunRecord, state: { status: RunRecord["status"]; wakeAt: number | null }) {
  run.status = state.status;
  run.wakeAt = state.wakeAt;
  if (await deps.store().park(run)) await deps.afterPark(run);
}

async function retryLater(deps: DriverDeps, run: RunRecord, retryAfter: string | null, failedAttempts: number) {
  const now = deps.now();
  await park(deps, run, { status: "running", wakeAt: retryAfterTime(retryAfter, now) ?? now + deps.backoff(failedAttempts) });
}

async function finish(deps: DriverDeps, run: RunRecord, result: RunResult) {
  const followUps = deps.followUps(run, result);
  if (await deps.store().finish(run, result, followUps)) deps.afterFinish(followUps);
}

/** Before each Call Request: a run at its step limit or over its state size ends as on Inngest. */
function overLimits(run: RunRecord, limits: RunLimits): SerializedError | null {
  if (run.stack.length >= limits.maxSteps) {
    return { name: "InngestErrFunctionOverflowed", message: `The function run exceeded the step limit of ${limits.maxSteps} steps.` };
  }
  const stateBytes = Buffer.byteLength(JSON.stringify(run.events)) + Buffer.byteLength(JSON.stringify(run.steps));
  if (stateBytes > limits.maxStateBytes) {
    return {
      name: "InngestErrStateOverflowed",
      message: `The function run exceeded the state size limit of ${limits.maxStateBytes} bytes.`,
    };
  }
  return null;
}

export async function driveRun(deps: DriverDeps, run: RunRecord): Promise<void> {
  const fn = deps.fn(run.functionId);
  if (!fn)
    return finish(deps, run, {
      status: "failed",
      error: { name: "EmbeddedExecutorError", message: `function ${run.functionId} is not served by the app` },
    });
  // Woken by its timer: end due sleeps and wait timeouts. Woken early: rest again.
  const wasResting = run.status !== "running";
  if (!resolveDuePending(run, deps.now()) && wasResting) return park(deps, run, parkedState(run));

  // A step's result is saved with the state the next reply leads to: the finish, a park, a retry,
  // or, when that reply is one more step, a save of both. So every other step round trip writes
  // nothing, and a run of one step (a generation's) saves nothing between its two Call Requests.
  // A process that dies between a step's reply and that write runs the step again when the run is
  // re-driven, as Inngest may run a step again (steps are idempotent): a window of one Call Request.
  let unsaved = false;
  for (;;) {
    if (deps.stopping()) return park(deps, run, { status: "running", wakeAt: deps.now() });
    const overflow = overLimits(run, deps.limits());
    if (overflow) return finish(deps, run, { status: "failed", error: overflow });
    const stepId = run.nextStepId ?? "step";
    const attemptKey = run.nextStepId ?? FUNCTION_ATTEMPT_KEY;
    const attempt = run.attempts[attemptKey] ?? 0;
    const sentAt = deps.now();
    const outcome = await deps.call(fn.id, stepId, callRequestBody(run, attempt, fn.maxAttempts));

    if (outcome.kind === "aborted") return park(deps, run, { status: "running", wakeAt: deps.now() });
    if (outcome.kind === "completed") {
      // The steps it ran on the way (async checkpointing) are memoized with the result, as the run's record.
      if (outcome.ops?.length) memoizeCheckpointed(run, outcome.ops, deps.limits().maxStepOutputBytes);
      return finish(deps, run, { status: "completed", output: outcome.data });
    }
    if (outcome.kind === "error") {
      const failedAttempts = attempt + 1;
      if (!outcome.retriable || failedAttempts >= fn.maxAttempts) return finish(deps, run, { status: "failed", error: outcome.error });
      run.attempts[attemptKey] = failedAttempts;
      if (outcome.stepNotFound) run.nextStepId = null;
      return retryLater(deps, run, outcome.retryAfter, failedAttempts);
    }

    const next = applyOps(run, outcome.ops, outcome.retryAfter, {
      attempt,
      sentAt,
      now: deps.now(),
      maxAttempts: fn.maxAttempts,
      maxStepOutputBytes: deps.limits().maxStepOutputBytes,
    });
    if (next.kind === "retry") {
      if (next.failedAttempts >= fn.maxAttempts)
        return finish(deps, run, {
          status: "failed",
          error: { name: "EmbeddedExecutorError", message: "the serve handler reported no step to run" },
        });
      return retryLater(deps, run, next.retryAfter, next.failedAttempts);
    }
    if (next.kind === "park") return park(deps, run, parkedState(run));
    run.status = "running";
    if (!unsaved) {
      unsaved = true;
      continue;
    }
    unsaved = false;
    if (!(await deps.store().save(run))) return; // the lease was lost: another process drives it now
  }
}
