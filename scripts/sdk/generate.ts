import path from "node:path";
import prettier from "prettier";
import { buildOpenApiDocument, type OpenApiDocument } from "../../server/edge/http/openapi/build-document";
import { pythonErrors, sdkErrorFamilies, typescriptErrors } from "./errors";
import { sdkMethods } from "./methods";
import { pythonClient, pythonResources } from "./python-client";
import { typescriptClient, typescriptResources } from "./typescript-client";
import {
  HEADER,
  modelRequests,
  refName,
  sdkDownloadOperations,
  sdkOperations,
  sdkStreamOperations,
  typeName,
  type Schema,
  type SdkDownloadOperation,
  type SdkOperation,
  type SdkStreamOperation,
} from "./document";

// `npm run sdk:generate`: the SDKs' generated parts, from the OpenAPI document built in-process
// (the same document GET /v1/openapi.json serves): types, method tables, per-operation methods and
// error families (GENERATED_PATHS). Pure: returns path → content; the script writes them and a
// test compares them with the committed files. README.md beside this file says what is whose.

const root = path.resolve(import.meta.dirname, "../..");

export { sdkOperations, sdkStreamOperations };

/** Component schemas the SDKs type: the data shapes and request bodies, not the envelopes around them. */
function sdkComponents(document: OpenApiDocument): Array<[string, Schema]> {
  const schemas = document.components.schemas as Record<string, Schema>;
  return Object.entries(schemas).filter(([name]) => !(name.endsWith("Response") && name !== "ErrorResponse"));
}

// ---------------------------------------------------------------- TypeScript

const tsKey = (name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name));
const tsDoc = (text: unknown, indent: string) =>
  typeof text === "string" && text ? `${indent}/** ${text.replace(/\*\//g, "*\\/").replace(/\n+/g, " ")} */\n` : "";

function tsType(schema: Schema, indent: string): string {
  if (typeof schema.$ref === "string") return typeName(refName(schema.$ref));
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) return union.map((member) => tsType(member, indent)).join(" | ");
  if (Array.isArray(schema.allOf)) return (schema.allOf as Schema[]).map((member) => tsType(member, indent)).join(" & ");
  if (Array.isArray(schema.type)) return schema.type.map((type) => tsType({ ...schema, type }, indent)).join(" | ");
  switch (schema.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = tsType((schema.items ?? {}) as Schema, indent);
      return /[ |&]/.test(item) ? `Array<${item}>` : `${item}[]`;
    }
    case "object":
      return tsObject(schema, indent);
    default:
      return "unknown";
  }
}

function tsObject(schema: Schema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const extra = schema.additionalProperties;
  const lines = Object.entries(properties).map(
    ([name, property]) =>
      `${tsDoc(property.description, `${indent}  `)}${indent}  ${tsKey(name)}${required.has(name) ? "" : "?"}: ${tsType(property, `${indent}  `)};`,
  );
  if (extra && typeof extra === "object")
    lines.push(
      `${indent}  [key: string]: ${Object.keys(extra).length ? `${tsType(extra as Schema, `${indent}  `)}${lines.length ? " | unknown" : ""}` : "unknown"};`,
    );
  if (lines.length === 0) return "Record<string, unknown>";
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function typescriptTypes(document: OpenApiDocument): string {
  const parts = [`// ${HEADER}\n`];
  for (const [name, schema] of sdkComponents(document)) {
    parts.push(`${tsDoc(schema.description, "")}export type ${typeName(name)} = ${tsType(schema, "")};\n`);
  }
  const requests = modelRequests(document);
  for (const kind of ["image", "video"] as const) {
    const title = kind === "image" ? "Image" : "Video";
    parts.push(`/** The exact create body of each ${kind} model, by model identifier. */`);
    parts.push(
      `export type ${title}ModelRequests = {\n${requests[kind].map(([model, component]) => `  ${JSON.stringify(model)}: ${typeName(component)};`).join("\n")}\n};\n`,
    );
    parts.push(`export type ${title}Model = keyof ${title}ModelRequests;\n`);
  }
  return parts.join("\n");
}

function typescriptOperations(operations: SdkOperation[], streams: SdkStreamOperation[], downloads: SdkDownloadOperation[]): string {
  const table = operations.map((operation) => {
    const { data: _data, ...plain } = operation;
    return `  ${operation.operationId}: ${JSON.stringify(plain)},`;
  });
  const dataTypes = operations.map(
    (operation) => `  ${operation.operationId}: ${operation.data === "unknown" ? "unknown" : `types.${typeName(operation.data)}`};`,
  );
  return [
    `// ${HEADER}`,
    "",
    'import type * as types from "./types.js";',
    "",
    "export type OperationSpec = {",
    "  operationId: string;",
    "  method: string;",
    "  path: string;",
    "  pathParams: string[];",
    "  query: Array<{ name: string; required: boolean }>;",
    "  headers: string[];",
    "  scope: string;",
    "  successStatus: number;",
    "  paginated: boolean;",
    "};",
    "",
    "/** Every /v1 operation the client calls: method, path template, parameters, required scope. */",
    "export const operations = {",
    ...table,
    "} as const satisfies Record<string, OperationSpec>;",
    "",
    "export type OperationId = keyof typeof operations;",
    "",
    "/** What each operation's success envelope carries in `data`. */",
    "export type OperationData = {",
    ...dataTypes,
    "};",
    "",
    'export type StreamOperationSpec = Omit<OperationSpec, "successStatus" | "paginated"> & {',
    "  /** The events the stream may send, in the order they come. */",
    "  events: string[];",
    "  /** The events after which the server ends the stream. */",
    "  endsAfter: string[];",
    "};",
    "",
    "/** The live streams (`text/event-stream`): where each is and which events it sends. */",
    "export const streamOperations = {",
    ...streams.map(({ events, ...plain }) => `  ${plain.operationId}: ${JSON.stringify({ ...plain, events: Object.keys(events) })},`),
    "} as const satisfies Record<string, StreamOperationSpec>;",
    "",
    "export type StreamOperationId = keyof typeof streamOperations;",
    "",
    "/** Each stream's events: the event name → what its `data:` carries. */",
    "export type StreamEventData = {",
    ...streams.map(
      (stream) =>
        `  ${stream.operationId}: {\n${Object.entries(stream.events)
          .map(([name, data]) => `    ${JSON.stringify(name)}: types.${typeName(data)};`)
          .join("\n")}\n  };`,
    ),
    "};",
    "",
    'export type DownloadOperationSpec = Omit<OperationSpec, "successStatus" | "paginated"> & {',
    "  /** What the file is (`text/csv`). */",
    "  contentType: string;",
    "  /** Per `format`: the type one row's columns follow. */",
    "  rows: Record<string, string>;",
    "};",
    "",
    "/** The downloads: files streamed as they are read (the client's `download` helper). */",
    "export const downloadOperations = {",
    ...downloads.map((download) => `  ${download.operationId}: ${JSON.stringify(download)},`),
    "} as const satisfies Record<string, DownloadOperationSpec>;",
    "",
    "export type DownloadOperationId = keyof typeof downloadOperations;",
    "",
  ].join("\n");
}

// ---------------------------------------------------------------- Python

function pyType(schema: Schema): string {
  if (typeof schema.$ref === "string") return JSON.stringify(typeName(refName(schema.$ref)));
  if ("const" in schema) return `Literal[${JSON.stringify(schema.const)}]`;
  if (Array.isArray(schema.enum))
    return `Literal[${schema.enum.map((value) => (typeof value === "string" ? JSON.stringify(value) : String(value))).join(", ")}]`;
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union) return pyUnion(union.map(pyType));
  if (Array.isArray(schema.type)) return pyUnion(schema.type.map((type) => pyType({ ...schema, type })));
  switch (schema.type) {
    case "string":
      return "str";
    case "number":
      return "float";
    case "integer":
      return "int";
    case "boolean":
      return "bool";
    case "null":
      return "None";
    case "array":
      return `List[${pyType((schema.items ?? {}) as Schema)}]`;
    case "object": {
      const extra = schema.additionalProperties;
      const value = extra && typeof extra === "object" && Object.keys(extra).length && !schema.properties ? pyType(extra as Schema) : "Any";
      return `Dict[str, ${value}]`;
    }
    default:
      return "Any";
  }
}

function pyUnion(members: string[]): string {
  const unique = [...new Set(members)];
  const withoutNone = unique.filter((member) => member !== "None");
  if (withoutNone.length === unique.length) return unique.length === 1 ? (unique[0] as string) : `Union[${unique.join(", ")}]`;
  const inner = withoutNone.length === 1 ? (withoutNone[0] as string) : `Union[${withoutNone.join(", ")}]`;
  return `Optional[${inner}]`;
}

/** A TypedDict per object component; keys that are not identifiers need the functional form. */
function pyTypedDict(name: string, schema: Schema): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = (want: boolean) =>
    Object.entries(properties)
      .filter(([field]) => required.has(field) === want)
      .map(([field, property]) => `    ${JSON.stringify(field)}: ${pyType(property)},`);
  const doc = typeof schema.description === "string" ? `# ${schema.description.replace(/\n+/g, " ")}\n` : "";
  return [
    doc + `_${name}Required = TypedDict("_${name}Required", {`,
    ...fields(true),
    "})",
    `_${name}Optional = TypedDict("_${name}Optional", {`,
    ...fields(false),
    "}, total=False)",
    "",
    "",
    `class ${name}(_${name}Required, _${name}Optional):`,
    "    pass",
    "",
  ].join("\n");
}

function python(
  document: OpenApiDocument,
  operations: SdkOperation[],
  streams: SdkStreamOperation[],
  downloads: SdkDownloadOperation[],
): string {
  const parts = [`# ${HEADER}`, "# fmt: off", "from typing import Any, Dict, List, Literal, Optional, TypedDict, Union", "", ""];
  for (const [component, schema] of sdkComponents(document)) {
    const name = typeName(component);
    if (schema.type === "object" && Object.keys(schema.properties ?? {}).length > 0) parts.push(pyTypedDict(name, schema), "");
    else if (Array.isArray(schema.allOf)) parts.push(pyAllOf(name, schema.allOf as Schema[]), "");
    else parts.push(`${name} = ${pyType(schema)}`, "");
  }
  const requests = modelRequests(document);
  parts.push(
    "# The exact create body of each model, by model identifier.",
    `IMAGE_MODEL_REQUESTS = {${requests.image.map(([model, component]) => `${JSON.stringify(model)}: ${typeName(component)}`).join(", ")}}`,
    `VIDEO_MODEL_REQUESTS = {${requests.video.map(([model, component]) => `${JSON.stringify(model)}: ${typeName(component)}`).join(", ")}}`,
    "",
    "# Every /v1 operation the client calls: method, path template, parameters, required scope.",
    "OPERATIONS: Dict[str, Dict[str, Any]] = {",
    ...operations.map((operation) => `    ${JSON.stringify(operation.operationId)}: ${pyLiteral(operation)},`),
    "}",
    "",
    "# The live streams (text/event-stream): where each is, its events (name -> the type of its data),",
    "# and those after which the server ends the stream.",
    "STREAM_OPERATIONS: Dict[str, Dict[str, Any]] = {",
    ...streams.map((stream) => `    ${JSON.stringify(stream.operationId)}: ${pyLiteral(stream)},`),
    "}",
    "",
    "# The downloads: files streamed as they are read (the client's download helper), with the type of a",
    "# row per format.",
    "DOWNLOAD_OPERATIONS: Dict[str, Dict[str, Any]] = {",
    ...downloads.map((download) => `    ${JSON.stringify(download.operationId)}: ${pyLiteral(download)},`),
    "}",
    "",
  );
  return parts.join("\n");
}

/** `allOf` of components and inline objects: a TypedDict inheriting from each (an inline one first made as `<Name>Fields`). */
function pyAllOf(name: string, members: Schema[]): string {
  const inline: string[] = [];
  const bases = members.map((member, index) => {
    if (typeof member.$ref === "string") return typeName(refName(member.$ref));
    const part = `${name}Fields${members.length > 2 ? index : ""}`;
    inline.push(pyTypedDict(part, member), "");
    return part;
  });
  return [...inline, `class ${name}(${bases.join(", ")}):`, "    pass", ""].join("\n");
}

/** A Python literal of plain JSON data. */
function pyLiteral(value: unknown): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null) return "None";
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  if (typeof value === "object")
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pyLiteral(item)}`)
      .join(", ")}}`;
  return JSON.stringify(value);
}

export const GENERATED_PATHS = {
  typescriptTypes: "sdk/typescript/src/generated/types.ts",
  typescriptOperations: "sdk/typescript/src/generated/operations.ts",
  typescriptResources: "sdk/typescript/src/generated/resources.ts",
  typescriptClient: "sdk/typescript/src/generated/client.ts",
  typescriptErrors: "sdk/typescript/src/generated/errors.ts",
  python: "sdk/python/darkroom/_generated.py",
  pythonResources: "sdk/python/darkroom/_resources.py",
  pythonClient: "sdk/python/darkroom/_client.py",
  pythonErrors: "sdk/python/darkroom/_error_families.py",
} as const;

/** TypeScript laid out by the repository's Prettier settings, so `prettier --check` passes on the committed files. */
async function formatted(text: string, filePath: string): Promise<string> {
  const options = (await prettier.resolveConfig(path.join(root, filePath))) ?? {};
  return prettier.format(text, { ...options, filepath: filePath });
}

export async function generateSdkFiles(
  document: OpenApiDocument = buildOpenApiDocument({ serverUrl: "http://localhost:3000" }),
): Promise<Record<string, string>> {
  const operations = sdkOperations(document);
  const streams = sdkStreamOperations(document);
  const downloads = sdkDownloadOperations(document);
  const { client, resources } = sdkMethods(document);
  const families = sdkErrorFamilies(document);
  const typescript = async (key: keyof typeof GENERATED_PATHS, text: string) =>
    [GENERATED_PATHS[key], await formatted(text, GENERATED_PATHS[key])] as const;
  return {
    ...Object.fromEntries([
      await typescript("typescriptResources", typescriptResources(client, resources)),
      await typescript("typescriptClient", typescriptClient(client, resources)),
      await typescript("typescriptErrors", typescriptErrors(families)),
    ]),
    [GENERATED_PATHS.pythonResources]: pythonResources(resources),
    [GENERATED_PATHS.pythonClient]: pythonClient(client, resources),
    [GENERATED_PATHS.pythonErrors]: pythonErrors(families),
    [GENERATED_PATHS.typescriptTypes]: await formatted(typescriptTypes(document), GENERATED_PATHS.typescriptTypes),
    [GENERATED_PATHS.typescriptOperations]: await formatted(
      typescriptOperations(operations, streams, downloads),
      GENERATED_PATHS.typescriptOperations,
    ),
    [GENERATED_PATHS.python]: python(document, operations, streams, downloads),
  };
}
