import { createHmac } from "node:crypto";
import type { CallOutcome, JsonObject, OutgoingOp, RunRecord, SerializedError } from "./types";

// The SDK wire protocol as the executor speaks it (SDK_SPEC §4.1.3, §4.4, §5): signed requests,
// the Call Request body, and reading a reply into an outcome. `ctx.fn_id` and `ctx.qi_id` switch
// the SDK to async checkpointing: it runs a new step and goes on with the function, and sends what
// it ran to the checkpoint API (the embedded client's fetch hands it to the executor) before a
// wait, or with RunComplete in its reply.

/** RFC 8785 (JCS) for parsed JSON values: what the SDK signs and verifies. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(",")}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((key) => (value as JsonObject)[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as JsonObject)[key])}`);
  return `{${entries.join(",")}}`;
}

/** X-Inngest-Signature for a body: `t=<unix seconds>&s=<hex HMAC-SHA256(canonical body + t)>`. */
export function signBody(body: string, signingKey: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000).toString();
  const canonical = body === "" ? "" : canonicalJson(JSON.parse(body));
  const key = signingKey.replace(/^signkey-\w+-/, "");
  const s = createHmac("sha256", key)
    .update(canonical + t)
    .digest("hex");
  return `t=${t}&s=${s}`;
}

export function callRequestBody(run: RunRecord, attempt: number, maxAttempts: number) {
  const [event] = run.events;
  return {
    // -1: "the SDK decides", which is V2 in this SDK, the protocol this executor speaks (the
    // executor suites would fail on another). The SDK parses the version with a chain of zod v3
    // unions that builds a ZodError per literal it tries before the match: -1 is the first.
    version: -1,
    event,
    events: run.events,
    steps: run.steps,
    ctx: {
      run_id: run.id,
      attempt,
      max_attempts: maxAttempts,
      disable_immediate_execution: run.disableImmediateExecution,
      fn_id: run.functionId,
      qi_id: run.id,
      use_api: false,
      stack: { stack: run.stack, current: run.stack.length },
    },
  };
}

export type HttpReply = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

function header(reply: HttpReply, name: string): string | null {
  const value = reply.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function asSerializedError(value: unknown, fallbackMessage: string): SerializedError {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const record = value as JsonObject;
    const message = typeof record.message === "string" ? record.message : typeof record.error === "string" ? record.error : fallbackMessage;
    return { ...record, name: typeof record.name === "string" ? record.name : "Error", message };
  }
  return { name: "Error", message: typeof value === "string" && value ? value : fallbackMessage };
}

/** The ops of a 206 reply or of an async checkpoint: the entries that name an op. */
export function opsOf(body: unknown): OutgoingOp[] {
  return (Array.isArray(body) ? body : [body]).filter(
    (op): op is OutgoingOp => Boolean(op) && typeof op === "object" && typeof (op as OutgoingOp).op === "string",
  );
}

/** Reads a Call Request's reply (SDK_SPEC §4.4.3, §5.1.1). */
export function interpretReply(reply: HttpReply): CallOutcome {
  const body = parseJson(reply.text);
  const retryAfter = header(reply, "retry-after");
  if (reply.status === 200) return { kind: "completed", data: body };
  if (reply.status === 206) {
    const ops = opsOf(body);
    const complete = ops.find((op) => op.op === "RunComplete");
    if (complete) return { kind: "completed", data: complete.data ?? null, ops: ops.filter((op) => op !== complete) };
    return { kind: "ops", ops, retryAfter };
  }
  const noRetry = header(reply, "x-inngest-no-retry") === "true";
  const stepNotFound = Boolean(body && typeof body === "object" && "requestedStep" in body);
  return {
    kind: "error",
    error: asSerializedError(body, `the serve handler answered HTTP ${reply.status}`),
    retriable: !noRetry,
    retryAfter,
    stepNotFound,
  };
}
