import "server-only";
import { estimateQuerySchema } from "../../openapi/schemas/catalog";
import { defineOperation } from "../define-operation";

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

export const listProviders = defineOperation({
  operationId: "listProviders",
  method: "GET",
  path: "/v1/library/providers",
  tag: "Catalog",
  summary: "Provider catalog",
  description: "The inference providers Darkroom routes to and how each is integrated.",
  scope: "library:read",
  response: { component: "LibraryProviderList" },
  errors: [],
});

export const listModels = defineOperation({
  operationId: "listModels",
  method: "GET",
  path: "/v1/library/models",
  tag: "Catalog",
  summary: "Model catalog",
  description: "Every model with its create schema, providers and pricing.",
  scope: "library:read",
  response: { component: "LibraryModelList" },
  errors: [],
});
