import type { ModelDefinition, ModelType } from "../catalog/index";
import { findServedModel } from "../catalog/model-status";
import { invalidRequest } from "../base/error-table";
import { configuredProviders } from "../providers/configured-providers";

// The model a create route's path names: an unknown model, or one this deployment turned off, is
// ERR1012 and a model of the other media kind is ERR1001, all before the body is read.

export function findModelFor(kind: ModelType, identifier: string): ModelDefinition {
  const model = findServedModel(identifier, configuredProviders());
  if (model.type !== kind) {
    throw invalidRequest(`${identifier} is a ${model.type} model: use POST /v1/generate/${model.type}/${identifier}.`, [
      { field: "model_identifier", message: `is a ${model.type} model, not ${kind === "image" ? "an image" : "a video"} model` },
    ]);
  }
  return model;
}
