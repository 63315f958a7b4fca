import { z } from "zod";
import { invalidRequest } from "../../base/error-table";
import { fieldErrorsFromIssues } from "../../base/field-errors";

// Query strings arrive as text. These schemas read them (empty means absent, only plain integers
// count) and are what withApiKey parses an operation's query with, so the document shows the
// real types and bounds and the routes enforce exactly those.

const INTEGER_TEXT = /^-?\d+$/;

function integerFromText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (text === "") return undefined;
  return INTEGER_TEXT.test(text) ? Number(text) : value;
}

function emptyAsAbsent(value: unknown): unknown {
  return typeof value === "string" && value.trim() === "" ? undefined : value;
}

function boundedInteger(options: { min: number; max?: number }) {
  const bounds = options.max === undefined ? `at least ${options.min}` : `between ${options.min} and ${options.max}`;
  const integer = z.int({ error: "must be an integer" }).min(options.min, `must be ${bounds}`);
  return options.max === undefined ? integer : integer.max(options.max, `must be ${bounds}`);
}

/** An integer query parameter; outside the bounds is ERR1001 naming the parameter. */
export function integerQueryParam(options: { min: number; max?: number; default: number }) {
  return z.preprocess(integerFromText, boundedInteger(options).default(options.default));
}

/**
 * As integerQueryParam, but an absent value stays undefined, so a rule can tell it from one that
 * was sent (`offset` beside `starting_after`); the document shows the default, the handler applies it.
 */
export function optionalIntegerQueryParam(options: { min: number; max?: number; default: number }) {
  return z.preprocess(integerFromText, boundedInteger(options).optional().meta({ default: options.default }));
}

/** An integer that is clamped into the bounds rather than refused (estimate `count`), however large. */
export function clampedIntegerQueryParam(options: { min: number; max: number; default: number }) {
  const clamped = (value: unknown) => {
    const number = integerFromText(value);
    return typeof number === "number" ? Math.min(options.max, Math.max(options.min, number)) : number;
  };
  return z.preprocess(clamped, z.int({ error: "must be an integer" }).default(options.default));
}

/** An optional number query parameter; an empty value counts as absent. */
export function numberQueryParam() {
  const numberFromText = (value: unknown) => {
    const present = emptyAsAbsent(value);
    return typeof present === "string" && /^\d+(\.\d+)?$/.test(present.trim()) ? Number(present.trim()) : present;
  };
  return z.preprocess(numberFromText, z.number({ error: "must be a number" }).optional());
}

/** An optional boolean query parameter written `true`, `false`, `1` or `0`. */
export function booleanQueryParam() {
  const lowerCase = (value: unknown) => {
    const present = emptyAsAbsent(value);
    return typeof present === "string" ? present.trim().toLowerCase() : present;
  };
  return z
    .preprocess(lowerCase, z.enum(["true", "false", "1", "0"], { error: "must be true, false, 1 or 0" }).optional())
    .transform((value) => (value === undefined ? undefined : value === "true" || value === "1"));
}

/** An optional text query parameter; an empty value counts as absent. */
export function textQueryParam<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess(emptyAsAbsent, schema.optional());
}

/**
 * Parses a query string with one of the query schemas; the first value of a repeated parameter
 * wins, as with URLSearchParams.get. Failures are ERR1001 with `details.fields`.
 */
export function parseQuery<Schema extends z.ZodObject>(schema: Schema, query: URLSearchParams): z.output<Schema> {
  const values: Record<string, string> = {};
  for (const name of query.keys()) values[name] ??= query.get(name) ?? "";
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const fields = fieldErrorsFromIssues(result.error.issues);
  const first = fields[0];
  throw invalidRequest(first ? `${first.field} ${first.message}.` : "The query string is invalid.", fields);
}
