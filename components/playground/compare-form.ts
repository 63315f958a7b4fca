import type { CreateField } from "@/components/models/model-types";
import { initialValues, requestBody } from "./run-form";

// A Compare column: a model, optionally pinned to one provider, run with the shared prompt. Its body
// is the playground form's for that model with only the prompt (and the pin) set, so every other
// field takes the model's default, as it would on /v1.

export type CompareColumnState = { key: string; identifier: string; provider: string };

export const MAX_COMPARE_COLUMNS = 4;

export function columnBody(fields: readonly CreateField[], prompt: string, provider: string): Record<string, unknown> {
  const values = initialValues(fields);
  if ("generation_prompt" in values) values.generation_prompt = prompt;
  if (provider !== "" && "generation_provider_order" in values) values.generation_provider_order = provider;
  return requestBody(fields, values);
}

/** The first model with two or more providers, pinned to two of them: the comparison only a gateway can make. */
export function defaultColumns(models: ReadonlyArray<{ identifier: string; providers: readonly string[] }>): CompareColumnState[] {
  const multi = models.find((model) => model.providers.length > 1);
  if (multi) return multi.providers.slice(0, 2).map((provider, index) => ({ key: `c${index}`, identifier: multi.identifier, provider }));
  return models.slice(0, 2).map((model, index) => ({ key: `c${index}`, identifier: model.identifier, provider: "" }));
}
