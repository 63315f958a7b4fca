import { z } from "zod";
import type { ModelDefinition, NonEmpty } from "./models";

// The create body for one model (POST /v1/generate/...), built from the catalog so the
// library's advertised values and the validator cannot disagree. Strict: unknown fields are
// rejected, and a known field this model lacks accepts only absence, so it is named when sent.

export const PROMPT_MAX_LENGTH = 4000;
/** Every URL a create accepts; with the prompt's cap and each model's file count, it bounds a record. */
export const FILE_URL_MAX_LENGTH = 2048;

export type GenerationRequestSchema = ReturnType<typeof buildSchema>;
export type GenerationRequest = z.output<GenerationRequestSchema>;

// Built once per model: zod compiles a schema on first use, and create is the hot path.
const schemas = new WeakMap<ModelDefinition, GenerationRequestSchema>();

export function generationRequestSchema(model: ModelDefinition): GenerationRequestSchema {
  let schema = schemas.get(model);
  if (!schema) {
    schema = buildSchema(model);
    schemas.set(model, schema);
  }
  return schema;
}

function buildSchema(model: ModelDefinition) {
  const input = model.inputFiles;
  const video = model.type === "video" ? model : null;
  const shape = {
    generation_prompt: model.promptRequired ? prompt() : prompt().optional(),
    generation_ratio: oneOf(model.ratios).default(model.ratios[0]),
    generation_output_format: oneOf(model.formats).default(model.formats[0]),
    generation_output_number: z
      .number({ error: "must be a number" })
      .int("must be an integer")
      .min(1, "must be at least 1")
      .max(model.maxOutputs, `must be at most ${model.maxOutputs} for this model`)
      .default(1),
    generation_provider_order: z.string({ error: "must be a string" }).trim().min(1, "must not be empty").max(500).optional(),
    generation_output_retention: duration().optional(),
    generation_output_link_ttl: duration().optional(),
    generation_input_file: !input ? unsupported() : input.required ? inputFiles(input.max) : inputFiles(input.max).optional(),
    generation_input_file_last_content: video?.lastFrame ? fileUrl().optional() : unsupported(),
    generation_duration: video
      ? z.literal(video.durations, { error: required(`must be one of ${video.durations.join(", ")}`) })
      : unsupported(),
    generation_resolution: video ? oneOf(resolutionIds(video.resolutions)).default(video.defaultResolution) : unsupported(),
    generation_generate_audio:
      video && video.audioPerSecondMillis !== null ? z.boolean({ error: "must be true or false" }).default(false) : unsupported(),
  };
  const body = z.strictObject(shape, { error: (issue) => (issue.code === "invalid_type" ? "must be a JSON object" : undefined) });
  // First/last frame: an end frame is the end of a video that starts from the first input file.
  return body.superRefine((fields, context) => {
    if (fields.generation_input_file_last_content !== undefined && fields.generation_input_file === undefined) {
      context.addIssue({
        code: "custom",
        path: ["generation_input_file_last_content"],
        message: "needs generation_input_file, the first frame",
      });
    }
  });
}

// Listed rather than left out, so the error says "not supported by this model" and the
// inferred type keeps every field's real type.
function unsupported() {
  return z.never({ error: "is not supported by this model" }).optional();
}

/** "90s", "15m", "1h", "7d" (bounds are checked with the plan: server/generations/output-lifetimes.ts). */
function duration() {
  return z.string({ error: "must be a string" }).regex(/^\d{1,7}(s|m|h|d)$/, "must be a duration such as 90s, 15m, 1h or 7d");
}

function prompt() {
  return z
    .string({ error: required("must be a string") })
    .trim()
    .min(1, "must not be empty")
    .max(PROMPT_MAX_LENGTH, `must be at most ${PROMPT_MAX_LENGTH} characters`);
}

function oneOf(values: NonEmpty<string>) {
  return z.enum(values, { error: `must be one of ${values.join(", ")}` });
}

// The URL is copied into the record, its events, streams and webhooks: capped like a browser's.
function fileUrl() {
  return z
    .url({ protocol: /^https?$/, error: "must be an http or https URL" })
    .max(FILE_URL_MAX_LENGTH, `must be at most ${FILE_URL_MAX_LENGTH} characters`);
}

function inputFiles(max: number) {
  return z
    .array(fileUrl(), { error: required("must be an array of URLs") })
    .min(1, "must not be empty")
    .max(max, `accepts at most ${max} file${max === 1 ? "" : "s"} for this model`);
}

function resolutionIds(resolutions: NonEmpty<{ id: string }>): NonEmpty<string> {
  const [first, ...rest] = resolutions;
  return [first.id, ...rest.map((entry) => entry.id)];
}

function required(otherwise: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? "is required" : otherwise);
}
