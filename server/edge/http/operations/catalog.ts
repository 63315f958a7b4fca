import { estimateQuerySchema, libraryModelsQuerySchema } from "../../contract/catalog";
import type { ResponseComponentName } from "../../contract/index";
import { defineOperation } from "../define-operation";

// The library reads without parameters: `library:read`, the general bucket, no route-specific errors.
function libraryRead<Response extends ResponseComponentName>(
  operationId: string,
  path: string,
  component: Response,
  summary: string,
  description: string,
) {
  return defineOperation({
    operationId,
    method: "GET",
    path,
    tag: "Catalog",
    summary,
    description,
    scope: "library:read",
    response: { component },
    errors: [],
  });
}

export const getEstimate = defineOperation({
  operationId: "getEstimate",
  method: "GET",
  path: "/v1/estimate/{model_identifier}",
  tag: "Catalog",
  summary: "Cost estimate",
  description: "Prices a generation with the same function create reserves with, and says whether the balance can pay for it.",
  scope: "library:read",
  query: estimateQuerySchema,
  response: { component: "Estimate" },
  errors: ["ERR1001", "ERR1012"],
});

export const listProviders = libraryRead(
  "listProviders",
  "/v1/library/providers",
  "LibraryProviderList",
  "Provider catalog",
  "The inference providers Darkroom routes to and how each is integrated.",
);

export const listModels = defineOperation({
  operationId: "listModels",
  method: "GET",
  path: "/v1/library/models",
  tag: "Catalog",
  summary: "Model catalog",
  description:
    "Every model with its create schema, providers, workflows and pricing; `type`, `provider` and `workflow` narrow the list (all given must hold).",
  scope: "library:read",
  query: libraryModelsQuerySchema,
  response: { component: "LibraryModelList" },
  errors: ["ERR1001"],
});
