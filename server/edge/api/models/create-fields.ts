import "server-only";
import type { ModelDefinition } from "../../../catalog/models";
import { FILE_URL_MAX_LENGTH, PROMPT_MAX_LENGTH } from "../../../catalog/request-schema";
import type { LibraryModelEntry } from "../../http/handlers/library-shapes";

// Every field a create of this model accepts, as the request schema (server/catalog/request-schema.ts)
// validates it: the allowed values are the library entry's, the defaults and limits the schema's.

export type FieldValue = string | number | boolean;

export type CreateField = {
  field: string;
  required: boolean;
  /** What a value must be, in words. */
  accepts: string;
  /** The only values accepted; null when the field takes free text, a number range or URLs. */
  allowed: FieldValue[] | null;
  /** What an omitted optional field is taken as; null when nothing is assumed. */
  default: FieldValue | null;
  /** The most a count or a list may hold (outputs, input files); absent for other fields. */
  max?: number;
};

export function createFields(entry: LibraryModelEntry, model: ModelDefinition): CreateField[] {
  const { schema } = entry;
  const fields: CreateField[] = [
    {
      field: "generation_prompt",
      required: schema.generation_prompt,
      accepts: `text, 1 to ${PROMPT_MAX_LENGTH} characters`,
      allowed: null,
      default: null,
    },
    {
      field: "generation_ratio",
      required: false,
      accepts: "one of the allowed ratios",
      allowed: [...schema.generation_ratio],
      default: schema.generation_ratio[0] ?? null,
    },
    {
      field: "generation_output_format",
      required: false,
      accepts: "one of the allowed formats",
      allowed: [...schema.generation_output_format],
      default: schema.generation_output_format[0] ?? null,
    },
    {
      field: "generation_output_number",
      required: false,
      accepts: outputNumber(schema.generation_output_number),
      allowed: null,
      default: 1,
      max: schema.generation_output_number,
    },
  ];
  if (model.inputFiles) {
    const { max, kind } = model.inputFiles;
    fields.push({
      field: "generation_input_file",
      required: model.inputFiles.required,
      accepts: `an array of ${max === 1 ? `1 http(s) URL of ${kind === "video" ? "a video" : "an image"}` : `1 to ${max} http(s) URLs of ${kind === "video" ? "videos" : "images"}`}, ${max === 1 ? "" : "each "}up to ${FILE_URL_MAX_LENGTH} characters`,
      allowed: null,
      default: null,
      max,
    });
  }
  if (entry.specific_schema.includes("generation_input_file_last_content")) {
    fields.push({
      field: "generation_input_file_last_content",
      required: false,
      accepts: "an http(s) URL of the end frame; needs generation_input_file",
      allowed: null,
      default: null,
    });
  }
  if (model.type === "video") {
    const options = entry.specific_schema_options;
    fields.push({
      field: "generation_duration",
      required: true,
      accepts: "seconds, one of the allowed durations",
      allowed: [...(options.generation_duration ?? [])],
      default: null,
    });
    fields.push({
      field: "generation_resolution",
      required: false,
      accepts: "one of the allowed resolutions",
      allowed: [...(options.generation_resolution ?? [])],
      default: model.defaultResolution,
    });
    if (options.generation_generate_audio) {
      fields.push({
        field: "generation_generate_audio",
        required: false,
        accepts: "true or false",
        allowed: [...options.generation_generate_audio],
        default: false,
      });
    }
  }
  fields.push({
    field: "generation_provider_order",
    required: false,
    accepts: "fastest, or provider ids separated by commas",
    allowed: null,
    default: null,
  });
  return fields;
}

function outputNumber(max: number): string {
  return max === 1 ? "1: this model makes one output per generation" : `an integer, 1 to ${max}`;
}
