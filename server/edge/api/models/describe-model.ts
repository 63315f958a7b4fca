import "server-only";
import { findModel } from "../../../catalog/index";
import { ApiError } from "../../../base/error-table";
import { libraryModels } from "../../http/handlers/library-models";
import { createFields, type CreateField } from "./create-fields";
import { loadModelEvidence, overviewOf, type ModelOverview, type ModelReadContext } from "./model-overview";

// The model page: one library entry, with its providers' health, its typical run time and every
// field its create accepts. A disabled or unconfigured model is described too (the page says so).

export type ModelDescription = ModelOverview & {
  /** The create route, e.g. POST /v1/generate/image/darkroom/lumen-image. */
  create_path: string;
  fields: CreateField[];
};

export async function describeModel(identifier: string, context: ModelReadContext): Promise<ModelDescription> {
  const model = findModel(identifier);
  const entry = model && libraryModels({ type: model.type }).find((item) => item.model_identifier === identifier);
  if (!model || !entry)
    throw new ApiError("ERR1012", `No model ${identifier}. The Models page lists every one.`, { model_identifier: identifier });
  const evidence = await loadModelEvidence([identifier], context);
  return {
    ...overviewOf(entry, evidence),
    create_path: `/v1/generate/${model.type}/${model.identifier}`,
    fields: createFields(entry, model),
  };
}
