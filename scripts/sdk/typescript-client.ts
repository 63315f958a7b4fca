import { HEADER, typeName } from "./document";
import type { SdkMethod, SdkResource } from "./methods";

// The TypeScript client's methods: generated/resources.ts (one class per resource, its methods as
// arrow properties so they keep working destructured) and generated/client.ts (the `Darkroom`
// class: the client's own methods and its resources, on the hand-written core).

const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
const QUERY_TYPES = { integer: "number", number: "number", string: "string", boolean: "boolean" } as const;

const doc = (method: SdkMethod, indent: string) => `${indent}/** ${method.summary} (\`${method.verb} ${method.path}\`). */\n`;
const params = (method: SdkMethod) => `{ ${method.pathParams.map((param) => `${param.wire}: ${camel(param.name)}`).join(", ")} }`;
const positional = (method: SdkMethod) => method.pathParams.map((param) => `${camel(param.name)}: string`);
const queryFields = (method: SdkMethod) =>
  method.query.map((argument) => `${camel(argument.name)}?: ${QUERY_TYPES[argument.type]}`).join("; ");
const queryObject = (method: SdkMethod, source: string) =>
  `{ ${method.query.map((argument) => (camel(argument.name) === argument.name && !source ? argument.name : `${argument.name}: ${source}${camel(argument.name)}`)).join(", ")} }`;

/** The expression a method returns, calling the core through `client`. */
function call(method: SdkMethod, client: string): { args: string[]; body: string } {
  const id = JSON.stringify(method.operationId);
  const pathParams = method.pathParams.length ? params(method) : "{}";
  if (method.kind === "create") {
    const body = method.body as NonNullable<SdkMethod["body"]>;
    const title = body.kind === "image" ? "Image" : "Video";
    const bodyType = body.kind
      ? `M extends types.${title}Model ? types.${title}ModelRequests[M] : types.${typeName(body.component)}`
      : `types.${typeName(body.component)}`;
    const args = [...positional(method), `params: ${bodyType}`, "options: CreateOptions = {}"];
    if (body.kind) args[0] = args[0]?.replace(": string", ": M") as string;
    return { args, body: `${client}.create(${id}, ${pathParams}, params, options)` };
  }
  if (method.kind === "stream") {
    const options = method.query.length ? `StreamOptions & { ${queryFields(method)} }` : "StreamOptions";
    return {
      args: [...positional(method), `options: ${options} = {}`],
      body: `${client}.stream(${id}, ${pathParams}, ${method.query.length ? queryObject(method, "options.") : "{}"}, options)`,
    };
  }
  // A download answers the file as it streams; otherwise it is called like any read.
  const callee = method.kind === "download" ? "download" : "request";
  const args = [...positional(method), `options: ${method.options ?? "RequestOptions"} = {}`];
  const parts = [
    method.pathParams.length ? `params: ${params(method)}` : "",
    method.query.length ? `query: ${queryObject(method, "")}` : "",
  ].filter(Boolean);
  if (!method.query.length)
    return { args, body: `${client}.${callee}(${id}, ${parts.length ? `{ ...options, ${parts.join(", ")} }` : "options"})` };
  const names = method.query.map((argument) => camel(argument.name)).join(", ");
  return {
    args,
    body: `{\n    const { ${names}, ...rest } = options;\n    return ${client}.${callee}(${id}, { ...rest, ${parts.join(", ")} });\n  }`,
  };
}

const generic = (method: SdkMethod) =>
  method.kind === "create" && method.body?.kind
    ? `<M extends types.${method.body.kind === "image" ? "Image" : "Video"}Model | (string & {})>`
    : "";

function resourceMethod(method: SdkMethod): string[] {
  const { args, body } = call(method, "this.client");
  const lines = [
    `${doc(method, "  ")}  readonly ${camel(method.name)} = ${generic(method)}(${args.join(", ")}) => ${body.startsWith("{") ? body.replace(/\n {2}/g, "\n    ") : body};`,
  ];
  if (method.page) {
    const prefix = method.name === "list" ? "" : camel(method.name);
    const options = `options: ${method.options ?? "PageOptions"} = {}`;
    const key = JSON.stringify(method.page.itemsKey);
    lines.push(
      `  /** Every page from \`offset\` on (\`limit\` per page, 100 by default). */\n  readonly ${prefix ? `${prefix}Pages` : "pages"} = (${options}) => this.client.pages(${JSON.stringify(method.operationId)}, ${key}, options);`,
      `  /** Every ${typeName(method.page.item)} from \`offset\` on, fetching pages as the loop goes (\`for await (const item of …)\`). */\n  readonly ${prefix ? `${prefix}Iterate` : "iterate"} = (${options}) => this.client.iterate(${JSON.stringify(method.operationId)}, ${key}, options);`,
    );
  }
  return lines;
}

function clientMethod(method: SdkMethod): string {
  const { args, body } = call(method, "this");
  return `${doc(method, "  ")}  ${camel(method.name)}${generic(method)}(${args.join(", ")}) ${body.startsWith("{") ? body : `{\n    return ${body};\n  }`}`;
}

function optionTypes(methods: SdkMethod[]): string[] {
  return methods
    .filter((method) => method.options)
    .map(
      (method) =>
        `/** The query of \`${method.operationId}\`, with the per-call options. */\nexport type ${method.options} = RequestOptions & { ${queryFields(method)} };\n`,
    );
}

export function typescriptResources(client: SdkMethod[], resources: SdkResource[]): string {
  const all = [...client, ...resources.flatMap((resource) => resource.methods)];
  const uses = (kind: SdkMethod["kind"]) => all.some((method) => method.kind === kind);
  return [
    `// ${HEADER}`,
    "",
    `import type { ${["ClientCore", ...(uses("create") ? ["CreateOptions"] : []), ...(all.some((method) => method.page && !method.options) ? ["PageOptions"] : [])].join(", ")} } from "../core.js";`,
    ...(uses("stream") ? ['import type { StreamOptions } from "../sse.js";'] : []),
    'import type { RequestOptions } from "../transport.js";',
    ...(uses("create") ? ['import type * as types from "./types.js";'] : []),
    "",
    ...optionTypes(all),
    "/** A group of the client's methods, calling the API through the client's core. */",
    "export class Resource {",
    "  constructor(protected readonly client: ClientCore) {}",
    "}",
    "",
    ...resources.flatMap((resource) => [
      `export class ${resource.className} extends Resource {`,
      ...resource.methods.flatMap(resourceMethod),
      "}",
      "",
    ]),
  ].join("\n");
}

export function typescriptClient(client: SdkMethod[], resources: SdkResource[]): string {
  const generated = resources.filter((resource) => !resource.extendedIn).map((resource) => resource.className);
  const options = [...new Set(client.map((method) => method.options).filter(Boolean))];
  return [
    `// ${HEADER}`,
    "",
    `import { ClientCore${client.some((method) => method.kind === "create") ? ", type CreateOptions" : ""} } from "../core.js";`,
    ...resources
      .filter((resource) => resource.extendedIn)
      .map((resource) => `import { ${resource.className} } from ${JSON.stringify(resource.extendedIn?.typescript)};`),
    `import type { RequestOptions } from "../transport.js";`,
    `import { ${[...generated, ...options.map((name) => `type ${name}`)].join(", ")} } from "./resources.js";`,
    "",
    "/** The Darkroom API client: one method per /v1 operation and per live stream, grouped as the resources below. */",
    "export class Darkroom extends ClientCore {",
    ...client.map(clientMethod),
    "",
    ...resources.map((resource) => `  readonly ${resource.name}: ${resource.className} = new ${resource.className}(this);`),
    "}",
    "",
  ].join("\n");
}
