import { HEADER, typeName } from "./document";
import { snake, type SdkMethod, type SdkResource } from "./methods";

// The Python client's methods: _resources.py (one class per resource) and _client.py (the
// `Darkroom` class: the client's own methods and its resources, on the hand-written core).

const QUERY_TYPES = { integer: "int", number: "float", string: "str", boolean: "bool" } as const;
const IMPORTS = [
  "from __future__ import annotations",
  "",
  "from typing import Any, Dict, Iterator, Mapping, Optional, Union, cast",
  "",
  "from . import _generated as types",
];

const pyDoc = (text: string) => text.replace(/`/g, "``");
/** A query parameter that is a Python keyword (`from`) is an argument with a trailing underscore (`from_`). */
const PY_KEYWORDS = new Set(["from", "import", "class", "def", "return", "in", "is", "not", "and", "or", "global", "lambda", "pass"]);
const pyName = (name: string) => (PY_KEYWORDS.has(name) ? `${name}_` : name);
const mapping = (entries: Array<[string, string]>) => `{${entries.map(([key, value]) => `${JSON.stringify(key)}: ${value}`).join(", ")}}`;
const pathParams = (method: SdkMethod) => mapping(method.pathParams.map((param) => [param.wire, param.name]));
const queryParams = (method: SdkMethod) => mapping(method.query.map((argument) => [argument.name, pyName(argument.name)]));
const returnType = (method: SdkMethod) => (method.page || method.data === "unknown" ? "Dict[str, Any]" : `types.${typeName(method.data)}`);

function signature(method: SdkMethod): string[] {
  const positional = method.pathParams.map((param) => `${param.name}: str`);
  if (method.kind === "create") {
    const body = `Union[types.${typeName(method.body?.component ?? "")}, Mapping[str, Any]]`;
    const keywords = [
      "idempotency_key: Optional[str] = None",
      "wait: Union[bool, float] = False",
      "cancel_after: Union[str, int, float, None] = None",
      "timeout: Optional[float] = None",
    ];
    return [...positional, `params: ${body}`, "*", ...keywords];
  }
  const keywords = [
    ...(method.kind === "stream" ? ["last_event_id: Optional[str] = None"] : []),
    ...method.query.map((argument) => `${pyName(argument.name)}: Optional[${QUERY_TYPES[argument.type]}] = None`),
  ];
  return [...positional, ...(keywords.length ? ["*", ...keywords] : [])];
}

/** The method's definition, calling the core through `client`. */
function definition(method: SdkMethod, client: string): string[] {
  const id = JSON.stringify(method.operationId);
  const returns = method.kind === "stream" ? "Iterator[StreamEvent]" : method.kind === "download" ? "Download" : returnType(method);
  const head = `    def ${snake(method.name)}(${["self", ...signature(method)].join(", ")}) -> ${returns}:`;
  const docs = [`        """${pyDoc(method.summary)} (\`\`${method.verb} ${method.path}\`\`).`];
  if (method.kind === "create")
    docs.push(
      "",
      "        ``wait=True`` (or a number of seconds) waits for the end and returns the record in",
      '        ``generation_record``; ``cancel_after`` ("90s", "5m", or seconds) sets a deadline.',
    );
  docs[docs.length - 1] += docs.length > 1 ? '\n        """' : '"""';
  let body: string;
  if (method.kind === "create")
    body = `${client}._create(${id}, ${pathParams(method)}, params, idempotency_key=idempotency_key, wait=wait, cancel_after=cancel_after, timeout=timeout)`;
  else if (method.kind === "stream")
    body = `${client}.stream(${id}, ${pathParams(method)}, ${queryParams(method)}, last_event_id=last_event_id)`;
  else
    body = `${client}.${method.kind === "download" ? "download" : "request"}(${[id, method.pathParams.length ? `params=${pathParams(method)}` : "", method.query.length ? `query=${queryParams(method)}` : ""].filter(Boolean).join(", ")})`;
  const result =
    method.kind === "stream" || method.kind === "download" || returns === "Dict[str, Any]" ? body : `cast(${returns}, ${body})`;
  return [head, ...docs, `        return ${result}`, ""];
}

function pageHelpers(method: SdkMethod): string[] {
  if (!method.page) return [];
  const prefix = method.name === "list" ? "" : `${snake(method.name)}_`;
  const id = JSON.stringify(method.operationId);
  const key = JSON.stringify(method.page.itemsKey);
  return [
    `    def ${prefix}pages(self, *, limit: int = 100, offset: int = 0) -> Iterator[Dict[str, Any]]:`,
    '        """Every page from ``offset`` on."""',
    `        return self._client._pages(${id}, ${key}, limit=limit, offset=offset)`,
    "",
    `    def ${prefix}iterate(self, *, limit: int = 100, offset: int = 0) -> Iterator[types.${typeName(method.page.item)}]:`,
    '        """Every item from ``offset`` on, fetching pages as the loop goes."""',
    `        return self._client._iterate(${id}, ${key}, limit=limit, offset=offset)`,
    "",
  ];
}

export function pythonResources(resources: SdkResource[]): string {
  return [
    `# ${HEADER}`,
    "# fmt: off",
    '"""The client\'s resources: one class per group of operations, calling the API through the client\'s core."""',
    ...IMPORTS,
    "from ._core import ClientCore",
    ...(resources.some((resource) => resource.methods.some((method) => method.kind === "download"))
      ? ["from ._downloads import Download"]
      : []),
    "from ._sse import StreamEvent",
    "",
    "",
    "class _Resource:",
    "    def __init__(self, client: ClientCore) -> None:",
    "        self._client = client",
    "",
    "",
    ...resources.flatMap((resource) => [
      `class ${resource.className}(_Resource):`,
      ...resource.methods.flatMap((method) => [...definition(method, "self._client"), ...pageHelpers(method)]),
      "",
    ]),
  ]
    .join("\n")
    .replace(/\n+$/, "\n");
}

export function pythonClient(client: SdkMethod[], resources: SdkResource[]): string {
  const generated = resources.filter((resource) => !resource.extendedIn).map((resource) => resource.className);
  return [
    `# ${HEADER}`,
    "# fmt: off",
    '"""The Darkroom client: its own methods and its resources, on the hand-written core (``_core``)."""',
    ...IMPORTS.slice(0, 2),
    "from functools import cached_property",
    ...IMPORTS.slice(2),
    "from ._core import ClientCore",
    ...(client.some((method) => method.kind === "download") ? ["from ._downloads import Download"] : []),
    ...resources
      .filter((resource) => resource.extendedIn)
      .map((resource) => `from ${resource.extendedIn?.python} import ${resource.className}`),
    `from ._resources import ${generated.join(", ")}`,
    "",
    "",
    "class Darkroom(ClientCore):",
    '    """The Darkroom API client: one method per /v1 operation and per live stream (options: ``ClientCore``)."""',
    "",
    ...client.flatMap((method) => definition(method, "self")),
    ...resources.flatMap((resource) => [
      "    @cached_property",
      `    def ${resource.name}(self) -> ${resource.className}:`,
      `        return ${resource.className}(self)`,
      "",
    ]),
  ]
    .join("\n")
    .replace(/\n+$/, "\n");
}
