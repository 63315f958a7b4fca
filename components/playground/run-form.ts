import type { CreateField } from "@/components/models/model-types";

// The playground's form state, derived from the model's create fields (the schema the API
// validates with), never written per model: each field's control follows from what it accepts,
// and the body holds what the reader set plus every required field.

export type FormValue = string | number | boolean | string[];
export type FormValues = Record<string, FormValue>;

export type ControlKind = "prompt" | "choice" | "toggle" | "count" | "urls" | "url" | "providers" | "text";

/** The fields shown folded under "Advanced". */
export const ADVANCED_FIELDS: ReadonlySet<string> = new Set([
  "generation_output_format",
  "generation_input_file_last_content",
  "generation_provider_order",
]);

export function controlOf(field: CreateField): ControlKind {
  if (field.field === "generation_prompt") return "prompt";
  if (field.field === "generation_provider_order") return "providers";
  if (field.field === "generation_input_file") return "urls";
  if (field.field === "generation_input_file_last_content") return "url";
  if (field.allowed !== null && field.allowed.every((value) => typeof value === "boolean")) return "toggle";
  if (field.allowed !== null) return "choice";
  if (field.max !== undefined) return "count";
  return "text";
}

function emptyValue(field: CreateField): FormValue {
  const control = controlOf(field);
  if (control === "urls") return [];
  if (control === "toggle") return field.default === true;
  if (control === "count") return typeof field.default === "number" ? field.default : 1;
  // A required choice without a default (a video's duration) starts at its first value.
  if (control === "choice") return field.default ?? (field.required ? (field.allowed?.[0] ?? "") : "");
  return "";
}

export function initialValues(fields: readonly CreateField[]): FormValues {
  return Object.fromEntries(fields.map((field) => [field.field, emptyValue(field)]));
}

const isEmpty = (value: FormValue) => value === "" || (Array.isArray(value) && value.length === 0);

/** The create body the form holds: set values that differ from the defaults, and the required fields. */
export function requestBody(fields: readonly CreateField[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.field] ?? emptyValue(field);
    const control = controlOf(field);
    const clean =
      control === "urls" && Array.isArray(value)
        ? value.map((url) => url.trim()).filter(Boolean)
        : typeof value === "string"
          ? value.trim()
          : value;
    if (isEmpty(clean)) continue;
    if (!field.required && field.default !== null && clean === field.default) continue;
    if (control === "toggle" && clean === false && !field.required) continue;
    body[field.field] = clean;
  }
  return body;
}

/** A past request back in the form (history): its values over the model's empty ones. */
export function valuesFromRequest(fields: readonly CreateField[], request: Record<string, unknown>): FormValues {
  const values = initialValues(fields);
  for (const field of fields) {
    const value = request[field.field];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") values[field.field] = value;
    else if (Array.isArray(value)) values[field.field] = value.filter((item): item is string => typeof item === "string");
  }
  return values;
}

/** Field names as a person reads them: "generation_output_number" → "Output number". */
export function fieldLabel(field: string): string {
  const words = field.replace(/^generation_/, "").replaceAll("_", " ");
  const named: Record<string, string> = {
    "output number": "Count",
    "input file": "Input files",
    "input file last content": "Last frame",
    "generate audio": "Audio",
    "provider order": "Provider order",
  };
  const label = named[words] ?? words;
  return label.charAt(0).toUpperCase() + label.slice(1);
}
