import type { InngestRunStatus } from "../../base/generated/prisma/client";
import type { EventPayload, JsonObject } from "../../base/events/event-store";

// Shapes of the SDK wire protocol (docs/SDK_SPEC.md in inngest/inngest) and of the executor's own
// run state, shared by the executor's files.

// An event and its JSON as the event store keeps them (server/base/events), below the executor.
export type { EventPayload, JsonObject } from "../../base/events/event-store";

/** The error shape the SDK reports and accepts back in the step memo. */
export type SerializedError = JsonObject & { name: string; message: string; stack?: string };

/** One memoized step, keyed by hashed step id in the Call Request's `steps`. */
export type StepMemo = { type: "data"; data: unknown } | { type: "error"; error: SerializedError };

export type FunctionTrigger = { event: string; expression?: string } | { cron: string };

/** What the executor keeps of a function's registration (the sync body). */
export type FunctionDefinition = {
  /** Composite id: `<app id>-<function id>`, also the `fnId` of Call Requests. */
  id: string;
  name: string;
  triggers: FunctionTrigger[];
  /** Retries + 1: every step and the function body get this many attempts. */
  maxAttempts: number;
  /** Runs of this function driven at once at most (its `concurrency` option, function scope); null: no own limit. */
  concurrency: number | null;
  /** A keyed `concurrency` entry: runs of one key driven at once at most, keys served in turn. */
  concurrencyKey: { expression: string; limit: number } | null;
};

/** A step that waits on the executor rather than on code: a sleep or a wait for an event. */
export type PendingOp =
  | { id: string; op: "Sleep"; wakeAt: number }
  | { id: string; op: "WaitForEvent"; event: string; if?: string; timeoutAt: number; since: number };

/** The memo key for function-level attempts (the body after the last step). */
export const FUNCTION_ATTEMPT_KEY = "$function";

export type RunStatus = InngestRunStatus;

export type RunRecord = {
  id: string;
  appId: string;
  functionId: string;
  eventId: string;
  events: EventPayload[];
  status: RunStatus;
  steps: Record<string, StepMemo>;
  /** Hashed step ids in the order they were memoized (ctx.stack.stack). */
  stack: string[];
  /** Failed attempts so far, per hashed step id (and FUNCTION_ATTEMPT_KEY). */
  attempts: Record<string, number>;
  /** The step the next Call Request asks for (a planned or retried step); null: "step". */
  nextStepId: string | null;
  disableImmediateExecution: boolean;
  pending: PendingOp[];
  wakeAt: number | null;
};

/** A step operation reported in a 206 response (SDK_SPEC §5.1.1). */
export type OutgoingOp = {
  id: string;
  op: string;
  name?: string;
  displayName?: string;
  opts?: JsonObject | null;
  data?: unknown;
  error?: SerializedError;
};

/** What one Call Request came back with. */
export type CallOutcome =
  /** `ops`: steps the SDK ran in this Call Request and reported beside RunComplete (async checkpointing). */
  | { kind: "completed"; data: unknown; ops?: OutgoingOp[] }
  | { kind: "ops"; ops: OutgoingOp[]; retryAfter: string | null }
  | { kind: "error"; error: SerializedError; retriable: boolean; retryAfter: string | null; stepNotFound: boolean }
  | { kind: "aborted" };
