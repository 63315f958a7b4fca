import { z } from "zod";

// How a validated request becomes a hosted provider's input, declared as data beside each model
// (docs/catalog.md). Each input field names the request value it carries, a constant, or a request
// value passed through a table, so a model on Replicate or fal is added without touching an adapter.

/** The request values a mapping can read (server/providers/types.ts ProviderJob, in the API's words). */
export const inputSources = [
  "prompt",
  "ratio",
  "output_format",
  "output_count",
  "seed",
  "duration",
  "resolution",
  "audio",
  "input_file",
  "input_files",
  "last_frame",
] as const;
export type InputSource = (typeof inputSources)[number];

const json: z.ZodType<unknown> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.record(z.string(), z.unknown()),
  z.array(z.unknown()),
]);
const source = z.enum(inputSources);

const derivedValue = z.strictObject({
  from: source,
  /** Request value (as text: `16:9`, `720p`, `8`, `true`) → provider value; must cover every value the model allows. */
  map: z.record(z.string(), json).optional(),
  /** The value as text, e.g. a duration `"5"`; with `suffix`, `"8s"`. */
  as: z.literal("string").optional(),
  suffix: z.string().optional(),
  /** Sent only when these request values hold, e.g. `{ resolution: ["1080p"] }`. */
  when: z.partialRecord(source, z.array(z.string()).min(1)).optional(),
});

export const inputValueSchema = z.union([source, z.strictObject({ const: json }), derivedValue]);
export const inputMappingSchema = z.record(z.string().min(1), inputValueSchema);

export type InputValue = z.infer<typeof inputValueSchema>;
export type InputMapping = z.infer<typeof inputMappingSchema>;

/** The request values of one job, read by name. */
export type InputValues = { readonly [S in InputSource]: unknown };

/** The provider's input for one job: fields whose value is absent (null, undefined) are left out. */
export function applyInputMapping(mapping: InputMapping, values: InputValues): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(mapping)) {
    const value = resolve(spec, values);
    if (value !== null && value !== undefined) input[field] = value;
  }
  return input;
}

function resolve(spec: InputValue, values: InputValues): unknown {
  if (typeof spec === "string") return values[spec];
  if ("const" in spec) return spec.const;
  if (spec.when && !Object.entries(spec.when).every(([name, allowed]) => allowed.includes(asText(values[name as InputSource]))))
    return null;
  const value = values[spec.from];
  if (value === null || value === undefined) return null;
  if (spec.map) return spec.map[asText(value)] ?? null;
  if (spec.as === "string" || spec.suffix !== undefined) return `${asText(value)}${spec.suffix ?? ""}`;
  return value;
}

export function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The request values a mapping reads, for the catalog's checks. */
export function sourcesRead(mapping: InputMapping): Set<InputSource> {
  const read = new Set<InputSource>();
  for (const spec of Object.values(mapping)) {
    if (typeof spec === "string") read.add(spec);
    else if ("from" in spec) read.add(spec.from);
  }
  return read;
}
