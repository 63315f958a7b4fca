import http from "node:http";
import zlib from "node:zlib";
import fc from "fast-check";
import { errorTable, type ErrorCode } from "@/server/base/error-table";
import { operationErrors, type AnyOperation } from "@/server/edge/http/define-operation";
import { v1Operations } from "@/server/edge/http/operations";
import { errorEnvelopeSchema, paginationFields, successEnvelopeSchema } from "@/server/edge/contract/common";
import { z } from "zod";
import { baseUrl } from "@/tests/support/http";

// Hostile /v1 traffic for the edge suite and the R4 drill: raw HTTP requests (fetch refuses TRACE
// and rewrites odd paths), the fast-check arbitraries that make them up, and the check of what
// came back against the error table and the operation registry.

export type RawReply = { status: number; headers: http.IncomingHttpHeaders; text: string };

export function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        method,
        path,
        headers: {
          ...options.headers,
          ...(options.body === undefined ? {} : { "content-length": String(Buffer.byteLength(options.body)) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          // A client that asked for gzip or br reads the decoded body.
          const body = Buffer.concat(chunks);
          const encoding = response.headers["content-encoding"];
          // (A HEAD answer names its encoding but has no body.)
          try {
            const decoded =
              body.length === 0
                ? body
                : encoding === "gzip"
                  ? zlib.gunzipSync(body)
                  : encoding === "br"
                    ? zlib.brotliDecompressSync(body)
                    : encoding === "deflate"
                      ? zlib.inflateSync(body)
                      : body;
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text: decoded.toString("utf8") });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

export const methods = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "PURGE",
  "MKCOL",
  "SEARCH",
  "REPORT",
  "LOCK",
  "UNLOCK",
  "COPY",
  "MOVE",
];

const segments = [
  "v1",
  "api",
  "content",
  "list",
  "generate",
  "image",
  "video",
  "darkroom",
  "lumen-image",
  "status",
  "usage",
  "health",
  "library",
  "models",
  "estimate",
  "image-generation",
  "cancel",
  "generation",
  "%zz",
  "%ff",
  "%ED%A0%80",
  "%2F",
  "..",
  ".",
  "%20",
  "0b8e3f0e-6d1f-4c39-9d3f-5c8f1a0e2b11",
];
const segment = fc.oneof(fc.constantFrom(...segments), fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/));

/** A path under /v1 or /api/v1 made of known and random segments, sometimes with a query. */
export const randomPath = fc
  .tuple(
    fc.constantFrom("/v1", "/api/v1"),
    fc.array(segment, { maxLength: 5 }),
    fc.option(fc.stringMatching(/^[a-z]{1,6}=[A-Za-z0-9%]{0,8}$/)),
  )
  .map(([base, parts, query]) => `${base}${parts.map((part) => `/${part}`).join("")}${query ? `?${query}` : ""}`);

export const contentType = fc.constantFrom(
  undefined,
  "application/json",
  "multipart/form-data; boundary=x",
  "text/plain",
  "application/x-www-form-urlencoded",
  "application/json; charset=latin1",
);

/** A small body: JSON, text or a multipart fragment. */
export const smallBody = fc.option(fc.oneof(fc.json({ maxDepth: 2 }), fc.string({ maxLength: 64 }), fc.constant("--x\r\n\r\n--x--")));

// ---- The R4 drill's wider alphabet: every part of a request can be hostile. ----

/** Text a header may carry (Node refuses control characters and anything past U+00FF): UTF-8 bytes read as Latin-1. */
export const headerSafe = (text: string) =>
  Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, "");

/** Text with the awkward parts of Unicode: astral planes, combining marks, RTL, NUL, lone surrogates. */
export const awkwardText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "\u0000",
    "\ud800",
    "\u202e\u0041",
    "e\u0301",
    "🧪".repeat(20),
    "' OR 1=1 --",
    "<script>x</script>",
    "${jndi:x}",
    "../../etc/passwd",
    "%00",
    "null",
    "undefined",
    "NaN",
  ),
);

/** A long string: around, at and past the limits a handler might have. */
export const hugeText = fc
  .integer({ min: 1_000, max: 70_000 })
  .chain((length) => fc.constantFrom("a", "é", "🧪", "%").map((unit) => unit.repeat(length)));

/** JSON nested far deeper than any schema: `[[[...]]]` or `{"a":{"a":...}}`. */
export const deepJson = fc
  .tuple(fc.integer({ min: 50, max: 5_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`));

/** A value of the wrong kind for almost any field. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, "", [], {}, "1", "true"),
  fc.integer(),
  fc.double(),
  awkwardText,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

const createFields = [
  "generation_prompt",
  "generation_ratio",
  "generation_output_format",
  "generation_output_number",
  "generation_provider_order",
  "generation_input_file",
  "generation_input_file_last_content",
  "generation_duration",
  "generation_resolution",
  "generation_generate_audio",
  "webhook_url",
  "__proto__",
  "constructor",
];

/** A create body with the documented field names and values of any type. */
export const wrongTypedCreateBody = fc
  .dictionary(fc.constantFrom(...createFields), wrongValue, { maxKeys: 5 })
  .map((fields) => JSON.stringify({ generation_prompt: "a lighthouse", ...fields }));

/** A body past the 256 KiB limit (ERR1011). */
export const oversizedBody = fc
  .integer({ min: 256 * 1024 + 1, max: 1024 * 1024 })
  .map((size) => `{"generation_prompt":"${"x".repeat(size)}"}`);

export const hostileBody = fc.option(
  fc.oneof(
    { weight: 3, arbitrary: fc.json({ maxDepth: 4 }) },
    { weight: 3, arbitrary: wrongTypedCreateBody },
    { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: awkwardText },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: hugeText.map((text) => JSON.stringify({ generation_prompt: text })) },
    { weight: 1, arbitrary: oversizedBody },
    { weight: 1, arbitrary: fc.constantFrom("--x\r\n\r\n--x--", "{", '{"a":', "[]", "null", '"text"', "1", "\u0000", '{"a":1}{"b":2}') },
  ),
);

/** Percent-encodes the UTF-8 bytes of any text (encodeURIComponent throws on a lone surrogate). */
export const percentEncode = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

const modelIdentifiers = [
  "darkroom/lumen-image",
  "darkroom/lumen-video",
  "google/veo-3",
  "nobody/nothing",
  "darkroom",
  "darkroom/lumen-image/extra",
  "DARKROOM/LUMEN-IMAGE",
];

/** A value for a path placeholder: a real model, a uuid, an id of someone, or junk. */
function placeholderValue(name: string, ids: readonly string[]) {
  const junk = fc.oneof(
    awkwardText.map(percentEncode),
    hugeText.map((text) => percentEncode(text.slice(0, 3000))),
    fc.uuid(),
    fc.constantFrom("%zz", "..", "%2F", "0", "-1"),
  );
  if (/model/i.test(name)) return fc.oneof(fc.constantFrom(...modelIdentifiers), junk);
  return ids.length ? fc.oneof(fc.constantFrom(...ids), junk) : junk;
}

/** Every template a /v1 operation answers at: its path, its legacy paths, and each under /api. */
export function operationTemplates(operation: AnyOperation): string[] {
  const forms = [operation.path, ...operation.legacyPaths.map((legacy) => legacy.path)];
  return [...forms, ...forms.map((form) => `/api${form}`)];
}

const allTemplates = v1Operations.flatMap((operation) => operationTemplates(operation).map((template) => ({ operation, template })));

const queryNames = [...new Set(v1Operations.flatMap((operation) => (operation.query ? Object.keys(operation.query.shape) : [])))];

/** A query string of known and unknown names with values of any kind, repeated names included. */
export const hostileQuery = fc.option(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...queryNames), fc.string({ maxLength: 8 })),
        fc.oneof(fc.integer().map(String), fc.constantFrom("", "-1", "0", "1e3", "99999999999999999999", "1.5", "0x10"), awkwardText),
      ),
      {
        minLength: 1,
        maxLength: 5,
      },
    )
    .map((pairs) => pairs.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join("&")),
);

/** A path that names a real operation (any of its forms) with hostile placeholder values, or a random one. */
export function hostilePath(ids: readonly string[]) {
  const known = fc.constantFrom(...allTemplates).chain(({ template }) => {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
    return fc
      .tuple(...names.map((name) => placeholderValue(name, ids)))
      .map((values) => names.reduce((path, name, index) => path.replace(`{${name}}`, values[index] as string), template));
  });
  return fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: randomPath.map((path) => path.split("?")[0] as string) }),
      hostileQuery,
    )
    .map(([path, query]) => (query ? `${path}?${query}` : path));
}

/** Authorization values: none, a real key, a well-formed stranger, and every kind of junk. */
export function authorization(keys: readonly string[]) {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...keys).map((key) => `Bearer ${key}`) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.stringMatching(/^[0-9A-Za-z]{40}$/).map((tail) => `Bearer dkr_${tail}`),
        fc.constantFrom(...keys).map((key) => key),
        fc.constantFrom(...keys).map((key) => `bearer  ${key.toUpperCase()}`),
        fc.constantFrom(
          "Bearer",
          "Bearer ",
          "Basic dXNlcjpwYXNz",
          "Bearer dkr_",
          "Token abc",
          "Bearer null",
          "Bearer undefined",
          "Bearer \t",
        ),
        awkwardText.map((text) => headerSafe(`Bearer ${text}`)),
        hugeText.map((text) => headerSafe(`Bearer ${text.slice(0, 6000)}`)),
      ),
    },
  );
}

/** Idempotency-Key values: none, valid, and each way to break the pattern. */
export const idempotencyKey = fc.option(
  fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9_\-:.]{1,40}$/),
    fc.constantFrom("", " ", "a b", "ключ", "x".repeat(256), "x".repeat(255), "../..", "a\tb", "*", "%00"),
    awkwardText.map(headerSafe),
  ),
);

/**
 * Client addresses no other suite uses (100.72.0.0/16, 2001:db8:dd::/48): the isolation drill
 * looks for them in the database and the app's log, where no raw address may be kept.
 */
export const distinctiveIpPatterns = [/100\.72\.\d{1,3}\.\d{1,3}/, /2001:db8:dd:[0-9a-f:]*/i];

export const distinctiveIp = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map(([third, last]) => `100.72.${third}.${last}`),
  fc.integer({ min: 1, max: 0xffff }).map((last) => `2001:db8:dd::${last.toString(16)}`),
);

/** X-Forwarded-For as a proxy chain would send it, or broken. */
export const forwardedFor = fc.option(
  fc.oneof(
    distinctiveIp,
    distinctiveIp.map((ip) => `${ip}, 127.0.0.1`),
    fc.constantFrom("garbage", "1.2.3.4.5", "::ffff:100.72.9.9", ""),
  ),
);

/** Other headers a hostile client sends: Next's internals, spoofed request ids, other regions' hosts. */
export const extraHeaders = fc.dictionary(
  fc.constantFrom(
    "next-action",
    "rsc",
    "next-router-state-tree",
    "x-middleware-subrequest",
    "x-request-id",
    "x-darkroom-client-ip",
    "accept",
    "accept-encoding",
    "x-http-method-override",
    "range",
    "if-none-match",
  ),
  fc.oneof(
    fc.constantFrom(
      "1",
      "0123456789abcdef",
      "middleware:middleware:middleware:middleware:middleware",
      "bytes=0-1",
      "*/*",
      "DELETE",
      "gzip, br",
      "%7B%7D",
    ),
    awkwardText.map(headerSafe),
  ),
  { maxKeys: 3 },
);

// ---- What a reply must be ----

const routes = allTemplates.map(({ operation, template }) => ({
  operation,
  literals: template.split("/").filter((segment) => segment && !segment.startsWith("{")).length,
  pattern: new RegExp(
    `^${template
      .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace(/\{(model_identifier|modelIdentifier)\}/g, "[^/]+(?:/[^/]+)*")
      .replace(/\{[^}]+\}/g, "[^/]+")}$`,
  ),
}));

/**
 * The operation a method and path name, if any, matched as the edge does (server/edge/http/v1-edge.ts):
 * an encoded slash separates segments, trailing slashes are dropped, literal segments win over
 * placeholders (/v1/content/list is not an id). `pathKnown`: some operation is served there.
 */
export function matchOperation(method: string, path: string): { operation: AnyOperation | null; pathKnown: boolean } {
  const undecoded = (path.split("?")[0] as string).replace(/\/+$/, "");
  const bare = undecoded.replace(/%2F/gi, "/").replace(/\/+$/, "");
  // Dot segments and empty segments are refused by the edge first: no registry match to check against.
  if (/\/\.\.?(\/|$)|\/\//.test(bare)) return { operation: null, pathKnown: false };
  // A model identifier made of encoded slashes only (`/v1/image-generation/%2F`) is still one
  // segment to the router: the create behind it answers (ERR2014 for a bad key, ERR1012 for the model).
  const decodedMatches = routes.filter((route) => route.pattern.test(bare));
  const matching = decodedMatches.length > 0 ? decodedMatches : routes.filter((route) => route.pattern.test(undecoded));
  const best = Math.max(...matching.map((route) => route.literals));
  const served = matching.filter((route) => route.literals === best);
  const sameMethod = served.find((route) => route.operation.method === (method === "HEAD" ? "GET" : method));
  return { operation: sameMethod?.operation ?? null, pathKnown: served.length > 0 };
}

const successEnvelope = successEnvelopeSchema(z.unknown());

/**
 * The codes an answer to a request the registry does not route may carry (ERR1012: an encoded
 * slash, `/v1/image-generation/%2F`, is read by the edge as a model identifier).
 */
const unroutedCodes: ErrorCode[] = ["ERR1001", "ERR1002", "ERR1006", "ERR1008", "ERR1011", "ERR1012"];

export type ReplyVerdict = { problem: string | null; code: string | null };

/**
 * A /v1 reply checked as the contract says: never a 5xx; JSON in the envelope with the request id
 * of its header; an error's status, type and retryable as the error table pairs them, and its code
 * one the operation documents; a success's data in the operation's response schema.
 */
export function judgeV1Reply(method: string, path: string, reply: RawReply): ReplyVerdict {
  const fail = (problem: string, code: string | null = null): ReplyVerdict => ({
    problem: `${method} ${path.slice(0, 120)} → ${reply.status}: ${problem}`,
    code,
  });
  if (reply.status >= 500) return fail(`a 5xx: ${reply.text.slice(0, 200)}`);
  if (method === "HEAD") return { problem: null, code: null };
  if (!String(reply.headers["content-type"]).includes("application/json")) return fail(`content-type ${reply.headers["content-type"]}`);
  let body: unknown;
  try {
    body = JSON.parse(reply.text);
  } catch {
    return fail(`not JSON: ${reply.text.slice(0, 120)}`);
  }
  const requestId = reply.headers["x-request-id"];
  const { operation, pathKnown } = matchOperation(method, path);
  if ((body as { status?: unknown }).status === "error") {
    const parsed = errorEnvelopeSchema.safeParse(body);
    if (!parsed.success) return fail(`error envelope: ${parsed.error.issues[0]?.message} at ${parsed.error.issues[0]?.path.join(".")}`);
    const { code, type, retryable } = parsed.data.error;
    const entry = errorTable[code];
    if (parsed.data.request_id !== requestId) return fail("request_id differs from X-Request-Id", code);
    if (entry.status !== reply.status || entry.type !== type || entry.retryable !== retryable)
      return fail(`${code} sent as ${reply.status} ${type} retryable=${retryable}`, code);
    if (reply.status === 429 && !reply.headers["retry-after"]) return fail(`${code} without Retry-After`, code);
    const documented = operation
      ? [...operationErrors(operation), "ERR1001"]
      : pathKnown
        ? ["ERR1001", "ERR1008", "ERR1006"]
        : unroutedCodes;
    if (!documented.includes(code))
      return fail(`${code} is not documented for ${operation?.operationId ?? "this path"}: ${parsed.data.error.message}`, code);
    return { problem: null, code };
  }
  const parsed = successEnvelope.safeParse(body);
  if (!parsed.success) return fail(`success envelope: ${parsed.error.issues[0]?.message} at ${parsed.error.issues[0]?.path.join(".")}`);
  if (parsed.data.request_id !== requestId) return fail("request_id differs from X-Request-Id");
  if (method === "OPTIONS") return { problem: null, code: null };
  if (!operation) return fail("a success where no operation is routed");
  if (reply.status !== operation.response.status)
    return fail(`${operation.operationId} answered ${reply.status}, documented ${operation.response.status}`);
  const schema = operation.response.paginated
    ? z.object({ ...paginationFields, data: operation.response.schema })
    : z.object({ data: operation.response.schema });
  const data = schema.safeParse(body);
  if (!data.success)
    return fail(`${operation.operationId} data: ${data.error.issues[0]?.message} at ${data.error.issues[0]?.path.join(".")}`);
  return { problem: null, code: null };
}
