import "server-only";
import { listModels } from "../../../catalog/index";
import { defaultMessages, errorTable, type ErrorCode } from "../../../base/error-table";
import { BEARER_SCHEME, envelopeComponentName } from "./components";
import { COMPONENT_SCHEMA_PREFIX, toJsonSchema, type JsonSchema } from "./json-schema";
import { operationErrors, type PathParam, type V1Operation } from "./routes";
import { mediaKindRequestComponentNames, modelRequestComponentName } from "../../contract/index";

// One V1Operation → one OpenAPI Operation Object: security, parameters, body, and responses
// (the success envelope, then one error response per HTTP status with an example per code).

export const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });

const pathParamComponent: Record<PathParam, string> = {
  model_identifier: "ModelIdentifier",
  modelIdentifier: "LegacyModelIdentifier",
  generation_id: "GenerationId",
};

export function queryParameters(entry: V1Operation) {
  if (!entry.query) return [];
  const schema = toJsonSchema(entry.query, "input");
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return { name, in: "query", required: required.has(name), ...(description ? { description } : {}), schema: propertySchema };
  });
}

export const pathParameters = (entry: V1Operation) => entry.pathParams.map((name) => ref("parameters", pathParamComponent[name]));

function parameters(entry: V1Operation) {
  return [
    ...pathParameters(entry),
    ...queryParameters(entry),
    ...(entry.idempotent ? [ref("parameters", "IdempotencyKey")] : []),
    ...(entry.operation.preferWait ? [ref("parameters", "PreferWait")] : []),
    ...(entry.operation.cancelAfter ? [ref("parameters", "CancelAfter")] : []),
  ];
}

/** A body that passes the model's schema, for the request's examples. */
export function exampleGenerationBody(identifier: string): Record<string, unknown> {
  const model = listModels().find((entry) => entry.identifier === identifier);
  if (!model) throw new Error(`No model ${identifier}`);
  return {
    generation_prompt: model.type === "image" ? "a lighthouse on a cliff at dusk, oil painting" : "waves rolling onto a black sand beach",
    generation_ratio: model.ratios[0],
    ...(model.inputFiles?.required ? { generation_input_file: ["https://example.com/inputs/start-frame.png"] } : {}),
    ...(model.type === "video" ? { generation_duration: model.defaultDuration } : {}),
  };
}

function requestBody(entry: V1Operation) {
  if (!entry.body) return undefined;
  const models = listModels().filter((model) => model.type === entry.body);
  return {
    required: true,
    description: `A JSON object (at most the body size limit, else ERR1011). Fields, allowed values and defaults depend on the model: the schema below lists every field an ${entry.body} model accepts, and \`x-darkroom-models\` holds each model's exact schema. Unknown fields, fields the model does not support, values outside its lists and missing required fields are ERR1001 naming the field in \`details.fields\`.`,
    content: {
      "application/json": {
        schema: ref("schemas", mediaKindRequestComponentNames[entry.body]),
        examples: Object.fromEntries(
          models.map((model) => [
            model.identifier.replace(/[^A-Za-z0-9.-]/g, "_"),
            { summary: model.identifier, value: exampleGenerationBody(model.identifier) },
          ]),
        ),
      },
    },
    "x-darkroom-models": Object.fromEntries(
      models.map((model) => [model.identifier, { $ref: `${COMPONENT_SCHEMA_PREFIX}${modelRequestComponentName(model)}` }]),
    ),
  };
}

export function responseHeaders(entry: V1Operation, status: number) {
  const headers: Record<string, { $ref: string }> = { "X-Request-Id": ref("headers", "X-Request-Id") };
  // A refused key has no account, so there is no bucket to report.
  if (status !== 401) {
    for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) headers[name] = ref("headers", name);
  }
  if (status === 429) headers["Retry-After"] = ref("headers", "Retry-After");
  // Key, scope and idempotency-key conflicts are decided before any stored response is looked up.
  if (entry.idempotent && status !== 401 && status !== 403 && status !== 409)
    headers["Idempotency-Replayed"] = ref("headers", "Idempotency-Replayed");
  return headers;
}

/**
 * Error responses live in components.responses, one per distinct set of codes (and headers), so
 * the 46 operations share a handful: `ERR1003_ERR1007`, `ERR1001_ERR2014_Replayable`, ...
 */
export type ResponseComponents = Record<string, unknown>;

export function errorResponses(entry: V1Operation, shared: ResponseComponents) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operationErrors(entry)) {
    const status = errorTable[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, { $ref: string }> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const headers = responseHeaders(entry, status);
    const name = `${codes.join("_")}${"Idempotency-Replayed" in headers ? "_Replayable" : ""}`;
    shared[name] ??= {
      description: codes.map((code) => `${code} \`${errorTable[code].type}\`: ${defaultMessages[code]}`).join("\n\n"),
      headers,
      content: {
        "application/json": {
          schema: ref("schemas", "ErrorResponse"),
          examples: Object.fromEntries(codes.map((code) => [code, ref("examples", code)])),
        },
      },
    };
    responses[String(status)] = ref("responses", name);
  }
  return responses;
}

/** What every operation object starts with: names, tag, the key scope and the bucket. */
export function operationHead(entry: V1Operation) {
  return {
    operationId: entry.operationId,
    summary: entry.summary,
    description: entry.description,
    tags: [entry.tag],
    ...(entry.deprecated ? { deprecated: true } : {}),
    // OpenAPI 3.1 lets a non-OAuth requirement name roles; the role here is the key scope.
    security: [{ [BEARER_SCHEME]: [entry.scope] }],
    "x-required-scope": entry.scope,
    "x-rate-limit-bucket": entry.bucket,
    ...(entry.aliasOf ? { "x-alias-of": entry.aliasOf } : {}),
  };
}

/** `shared` collects the error responses the operation refers to (components.responses). */
export function operationObject(entry: V1Operation, shared: ResponseComponents) {
  const { status, data } = entry.success;
  const body = requestBody(entry);
  return {
    ...operationHead(entry),
    parameters: parameters(entry),
    ...(body ? { requestBody: body } : {}),
    responses: {
      [String(status)]: {
        description: status === 202 ? "Accepted: the generation is created and `pending`." : "OK",
        headers: {
          ...responseHeaders(entry, status),
          ...(entry.operation.preferWait ? { "Preference-Applied": ref("headers", "Preference-Applied") } : {}),
        },
        content: { "application/json": { schema: ref("schemas", envelopeComponentName(data)) } },
      },
      ...errorResponses(entry, shared),
    },
  };
}
