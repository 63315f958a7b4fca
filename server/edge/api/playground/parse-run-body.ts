import "server-only";
import type { ModelDefinition } from "../../../catalog";
import { findServedModel } from "../../../catalog/model-status";
import { generationRequestSchema, type GenerationRequest } from "../../../catalog/request-schema";
import { invalidRequest, type FieldErrors } from "../../../base/error-table";
import { fieldErrorsFromIssues } from "../../../base/field-errors";
import { configuredProviders } from "../../../providers/configured-providers";

// The form's body read as POST /v1/generate/{kind}/{model} reads it: the model this deployment
// serves (ERR1012 otherwise) and its strict request schema, field errors named as /v1 names them.

export function servedModel(identifier: string): ModelDefinition {
  return findServedModel(identifier, configuredProviders());
}

export type ParsedRunBody = { ok: true; fields: GenerationRequest } | { ok: false; errors: FieldErrors };

export function checkRunBody(model: ModelDefinition, body: unknown): ParsedRunBody {
  const parsed = generationRequestSchema(model).safeParse(body);
  return parsed.success ? { ok: true, fields: parsed.data } : { ok: false, errors: fieldErrorsFromIssues(parsed.error.issues) };
}

/** ERR1001 naming the first offending field, as the /v1 create answers it. */
export function parseRunBody(model: ModelDefinition, body: unknown): GenerationRequest {
  const checked = checkRunBody(model, body);
  if (checked.ok) return checked.fields;
  const first = checked.errors[0];
  throw invalidRequest(
    first ? `The request body is invalid: ${first.field} ${first.message}.` : "The request body is invalid.",
    checked.errors,
  );
}
