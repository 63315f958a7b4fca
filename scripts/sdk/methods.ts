import type { OpenApiDocument } from "../../server/edge/http/openapi/build-document";
import { downloadContentType, modelRequests, modernOperations, refName, type ModernOperation, type Schema } from "./document";
import { argumentNames, extendedResources, placements, resourceOfTag } from "./placement";

// The SDKs' methods as both generators see them: one per modern operation, placed on a resource,
// with its arguments and what it answers, read from the OpenAPI document.

export type QueryArgument = { name: string; type: "integer" | "number" | "string" | "boolean" };

export type SdkMethod = {
  operationId: string;
  resource: string | null;
  name: string;
  summary: string;
  verb: string;
  path: string;
  /** `create`: a body, sent through the client's create helper (Idempotency-Key, wait, Cancel-After). */
  /** `download`: a file, answered as it streams (the client's download helper). */
  kind: "json" | "create" | "stream" | "download";
  pathParams: Array<{ wire: string; name: string }>;
  /** A stream's own `last_event_id` left out: the stream helper sends it. */
  query: QueryArgument[];
  /** The component `data` carries, or `unknown`. */
  data: string;
  /** A paginated list: the array property of its data and the component of one item. */
  page: { itemsKey: string; item: string } | null;
  options: string | null;
  /** A create's body component, and the media kind whose per-model request types apply. */
  body: { component: string; kind: "image" | "video" | null } | null;
};

export type SdkResource = {
  name: string;
  className: string;
  methods: SdkMethod[];
  extendedIn: { typescript: string; python: string } | null;
};

export const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_, _separator, letter: string) => letter.toUpperCase());
export const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const BOOLEAN_SPELLINGS = ["0", "1", "true", "false"];

function queryType(schema: Schema): QueryArgument["type"] {
  if (Array.isArray(schema.enum) && schema.enum.every((value) => BOOLEAN_SPELLINGS.includes(String(value)))) return "boolean";
  if (schema.type === "integer" || schema.type === "number" || schema.type === "boolean") return schema.type;
  return "string";
}

function dataOf(document: OpenApiDocument, found: ModernOperation): { data: string; paginated: boolean } {
  const envelopeRef = (found.content["application/json"]?.schema as { $ref?: string } | undefined)?.$ref;
  const envelope = envelopeRef ? (document.components.schemas[refName(envelopeRef)] as Schema | undefined) : undefined;
  const properties = (envelope?.properties ?? {}) as Record<string, Schema>;
  const dataRef = properties.data?.$ref;
  return { data: typeof dataRef === "string" ? refName(dataRef) : "unknown", paginated: "total" in properties };
}

function pageOf(document: OpenApiDocument, data: string): SdkMethod["page"] {
  const properties = ((document.components.schemas[data] as Schema | undefined)?.properties ?? {}) as Record<string, Schema>;
  const [itemsKey, items] = Object.entries(properties).find(([, property]) => property.type === "array") ?? [];
  const itemRef = (items?.items as Schema | undefined)?.$ref;
  if (!itemsKey || typeof itemRef !== "string") throw new Error(`The paginated ${data} has no array of components to page through`);
  return { itemsKey, item: refName(itemRef) };
}

function methodOf(document: OpenApiDocument, found: ModernOperation): SdkMethod {
  const operationId = found.operation.operationId as string;
  const tag = ((found.operation.tags ?? []) as string[])[0] ?? "client";
  const placement = placements[operationId] ?? { resource: resourceOfTag(tag), method: operationId };
  const stream = "text/event-stream" in found.content;
  const download = downloadContentType(found) !== null;
  const body = found.operation.requestBody as Schema | undefined;
  const bodyRef = ((body?.content as Record<string, Schema> | undefined)?.["application/json"]?.schema as { $ref?: string } | undefined)
    ?.$ref;
  const requests = modelRequests(document);
  const kindOfModels =
    (["image", "video"] as const).find(
      (kind) => requests[kind].length > 0 && body?.["x-darkroom-models"] && found.path.includes(`/${kind}/`),
    ) ?? null;
  const { data, paginated } = stream || download ? { data: "unknown", paginated: false } : dataOf(document, found);
  const query = found.parameters
    .filter((parameter) => parameter.in === "query" && !(stream && parameter.name === "last_event_id"))
    .map((parameter) => ({ name: parameter.name as string, type: queryType((parameter.schema ?? {}) as Schema) }));
  return {
    operationId,
    resource: placement.resource,
    name: placement.method,
    summary: (found.operation.summary as string | undefined) ?? operationId,
    verb: found.method,
    path: found.path,
    kind: stream ? "stream" : download ? "download" : bodyRef ? "create" : "json",
    pathParams: found.parameters
      .filter((parameter) => parameter.in === "path")
      .map((parameter) => ({
        wire: parameter.name as string,
        name: argumentNames[parameter.name as string] ?? (parameter.name as string),
      })),
    query,
    data,
    page: paginated ? pageOf(document, data) : null,
    options: query.length && !stream ? (placement.options ?? `${pascal(operationId)}Options`) : null,
    body: bodyRef ? { component: refName(bodyRef), kind: kindOfModels } : null,
  };
}

/** The client's own methods and its resources, in the order of the placements (then any others by operationId). */
export function sdkMethods(document: OpenApiDocument): { client: SdkMethod[]; resources: SdkResource[] } {
  const order = Object.keys(placements);
  const rank = (method: SdkMethod) => (order.includes(method.operationId) ? order.indexOf(method.operationId) : order.length);
  const methods = modernOperations(document)
    .map((found) => methodOf(document, found))
    .sort((a, b) => rank(a) - rank(b) || a.operationId.localeCompare(b.operationId));
  const resources: SdkResource[] = [];
  for (const method of methods) {
    if (method.resource === null) continue;
    let resource = resources.find((candidate) => candidate.name === method.resource);
    if (!resource)
      resources.push(
        (resource = {
          name: method.resource,
          className: pascal(method.resource),
          methods: [],
          extendedIn: extendedResources[method.resource] ?? null,
        }),
      );
    resource.methods.push(method);
  }
  return { client: methods.filter((method) => method.resource === null), resources };
}
