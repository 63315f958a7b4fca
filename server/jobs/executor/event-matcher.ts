import { Environment, EvaluationError } from "@marcbachmann/cel-js";
import type { EventPayload, FunctionTrigger } from "./types";

// The expressions of triggers (`if`, variable `event`) and of waitForEvent (`if`/`match`,
// variables `event` for the run's trigger and `async` for the candidate) are CEL, as on Inngest,
// evaluated by @marcbachmann/cel-js. An expression that does not parse or type-check throws; one
// that fails while evaluating (a missing key, no overload for the operand types) does not match,
// nor does one whose value is anything but `true`.

const env = new Environment().registerVariable("event", "dyn").registerVariable("async", "dyn");

type Compiled = ReturnType<typeof env.parse> | Error;

// waitForEvent conditions often embed an id (`async.data.predictionId == "…"`): keep a bounded
// number of compiled expressions, dropping the oldest first.
const MAX_COMPILED = 1000;
const compiled = new Map<string, Compiled>();

function compile(source: string): Compiled {
  try {
    const program = env.parse(source);
    const checked = program.check();
    if (!checked.valid) return checked.error ?? new Error("does not type-check");
    if (checked.type !== "bool" && checked.type !== "dyn") return new Error(`is a ${checked.type}, not a condition`);
    return program;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** Compiles (once) and evaluates an expression; an expression that does not compile throws. */
export function evaluateExpression(source: string, vars: Record<string, unknown>): boolean {
  let program = compiled.get(source);
  if (!program) {
    program = compile(source);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(source, program);
  }
  if (program instanceof Error) throw new Error(`expression "${source}": ${program.message}`);
  try {
    return program(vars) === true;
  } catch (error) {
    if (error instanceof EvaluationError) return false;
    throw error;
  }
}

const keyPrograms = new Map<string, ReturnType<typeof env.parse> | Error>();

/**
 * A concurrency key's value for a run's event (Inngest's `concurrency: { key }` is a CEL
 * expression over `event`, e.g. "event.data.accountId"); "" when it fails or yields nothing.
 */
export function evaluateKey(source: string, event: EventPayload): string {
  let program = keyPrograms.get(source);
  if (!program) {
    try {
      program = env.parse(source);
    } catch (error) {
      program = error instanceof Error ? error : new Error(String(error));
    }
    keyPrograms.set(source, program);
  }
  if (program instanceof Error) return "";
  try {
    const value: unknown = program({ event });
    return value === undefined || value === null ? "" : String(value);
  } catch {
    return "";
  }
}

/** Event names match exactly, or by prefix for a trailing "*" ("app/*"). */
export function eventNameMatches(pattern: string, name: string): boolean {
  return pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name;
}

/** Whether an event starts a run of a function with this trigger. */
export function triggerMatches(trigger: FunctionTrigger, event: EventPayload): boolean {
  if (!("event" in trigger) || !eventNameMatches(trigger.event, event.name)) return false;
  return trigger.expression ? evaluateExpression(trigger.expression, { event }) : true;
}
