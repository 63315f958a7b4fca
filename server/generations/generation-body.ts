import { findModel, type ModelDefinition, type ModelType } from "../catalog/index";
import { ApiError, invalidRequest } from "../error-table";

// The model a create route's path names: an unknown model is ERR1012 and a model of the other
// media kind is ERR1001, both before the body is read.

export function findModelFor(kind: ModelType, identifier: string): ModelDefinition {
  const model = findModel(identifier);
  if (!model) throw new ApiError("ERR1012", `No model ${identifier}. See GET /v1/library/models.`, { model_identifier: identifier });
  if (model.type !== kind) {
    throw invalidRequest(`${identifier} is a ${model.type} model: use POST /v1/generate/${model.type}/${identifier}.`, [
      { field: "model_identifier", message: `is a ${model.type} model, not ${kind === "image" ? "an image" : "a video"} model` },
    ]);
  }
  return model;
}
