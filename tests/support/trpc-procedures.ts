import superjson from "superjson";
import { appRouter } from "@/server/edge/api/root";
import { authedProcedure, memberProcedure, ownerProcedure, primaryOwnerProcedure } from "@/server/edge/api/trpc";
import { errorTable, type ErrorCode } from "@/server/base/error-table";
import { baseUrl } from "@/tests/support/http";

// Every dashboard procedure, read from the router itself (a new one is covered without editing the
// drills): its path, whether it is a query or a mutation, the least role it needs (from the
// middlewares it was built from) and the fields of its input. Calls go over HTTP as the dashboard
// makes them (superjson on the wire).

export type RoleNeeded = "public" | "signed-in" | "member" | "owner" | "primary_owner";

type ZodLike = { _zod: { def: Record<string, unknown> & { type: string } } };
type ProcedureDef = { type: "query" | "mutation" | "subscription"; inputs: unknown[]; middlewares: unknown[] };

export type ProcedureInfo = { path: string; type: "query" | "mutation"; role: RoleNeeded; fields: Record<string, ZodLike> };

const lastMiddleware = (procedure: { _def: unknown }) => (procedure._def as ProcedureDef).middlewares.at(-1);

/** The role check a procedure was built on: the builder whose last middleware it carries, most demanding first. */
function roleOf(def: ProcedureDef): RoleNeeded {
  const levels: Array<[RoleNeeded, { _def: unknown }]> = [
    ["primary_owner", primaryOwnerProcedure],
    ["owner", ownerProcedure],
    ["member", memberProcedure],
    ["signed-in", authedProcedure],
  ];
  return levels.find(([, builder]) => def.middlewares.includes(lastMiddleware(builder)))?.[0] ?? "public";
}

const isZod = (value: unknown): value is ZodLike => typeof value === "object" && value !== null && "_zod" in value;

/** The fields of every object schema the procedure's inputs are merged from. */
function fieldsOf(def: ProcedureDef): Record<string, ZodLike> {
  const fields: Record<string, ZodLike> = {};
  for (const input of def.inputs) {
    if (!isZod(input)) continue;
    let schema: ZodLike = input;
    while (schema._zod.def.type === "pipe" || schema._zod.def.type === "optional" || schema._zod.def.type === "default") {
      schema = (schema._zod.def.in ?? schema._zod.def.innerType) as ZodLike;
    }
    if (schema._zod.def.type === "object") Object.assign(fields, schema._zod.def.shape as Record<string, ZodLike>);
  }
  return fields;
}

export function listProcedures(): ProcedureInfo[] {
  const procedures = (appRouter._def as unknown as { procedures: Record<string, { _def: ProcedureDef }> }).procedures;
  return Object.entries(procedures)
    .filter(([, procedure]) => procedure._def.type !== "subscription")
    .map(([path, procedure]) => ({
      path,
      type: procedure._def.type as "query" | "mutation",
      role: roleOf(procedure._def),
      fields: fieldsOf(procedure._def),
    }));
}

/** A value the schema accepts (the smallest), so a call gets past validation to the rule under test. */
export function sampleOf(schema: ZodLike): unknown {
  const def = schema._zod.def;
  switch (def.type) {
    case "optional":
    case "default":
    case "prefault":
      return undefined;
    case "nullable":
      return null;
    case "pipe":
      return sampleOf(def.in as ZodLike);
    case "string":
      return "x";
    case "number":
    case "int":
    case "bigint": {
      const checks = (def.checks as Array<{ _zod: { def: { check: string; value?: number } } }> | undefined) ?? [];
      const min = checks.find((check) => check._zod.def.check === "greater_than")?._zod.def.value;
      return min ?? 1;
    }
    case "boolean":
      return true;
    case "date":
      return new Date();
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "array": {
      const checks = (def.checks as Array<{ _zod: { def: { check: string; minimum?: number } } }> | undefined) ?? [];
      const min = checks.find((check) => check._zod.def.check === "min_length")?._zod.def.minimum ?? 0;
      return Array.from({ length: min }, () => sampleOf(def.element as ZodLike));
    }
    case "union":
      return sampleOf((def.options as ZodLike[])[0] as ZodLike);
    case "object":
      return Object.fromEntries(Object.entries(def.shape as Record<string, ZodLike>).map(([name, field]) => [name, sampleOf(field)]));
    default:
      return undefined;
  }
}

/**
 * The kind of record an input field or path placeholder names, when it names one by id:
 * `accountId` → account, `generation_id` → generation, `ids` in notifications.* → notification.
 */
/** Fields named like ids that are not a record's (a storage destination's S3 access key id). */
const NOT_RECORD_IDS = new Set(["accessKeyId"]);

export function idKindOf(field: string, procedurePath = ""): string | null {
  if (NOT_RECORD_IDS.has(field)) return null;
  if (field === "ids") return procedurePath.split(".")[0]?.replace(/s$/, "") ?? null;
  const match = /^(.+?)(?:Id|_id|Ids|_ids)$/.exec(field);
  return match ? (match[1] as string).replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase()) : null;
}

export type TrpcReply = { status: number; text: string; body: unknown };

/** One procedure call over HTTP: a query as GET ?input=, a mutation as POST, with superjson's wire format. */
export async function callProcedure(
  path: string,
  type: "query" | "mutation",
  input: unknown,
  options: { cookie?: string; headers?: Record<string, string>; wire?: string } = {},
): Promise<TrpcReply> {
  const wire = options.wire ?? JSON.stringify(superjson.serialize(input));
  const headers: Record<string, string> = { ...options.headers, ...(options.cookie ? { cookie: options.cookie } : {}) };
  const response =
    type === "mutation"
      ? await fetch(`${baseUrl()}/api/trpc/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: baseUrl(), ...headers },
          body: wire,
        })
      : await fetch(`${baseUrl()}/api/trpc/${path}?input=${encodeURIComponent(wire)}`, { headers });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // judged by the caller
  }
  return { status: response.status, text, body };
}

type TrpcErrorBody = {
  error?: {
    json?: {
      message?: unknown;
      data?: { httpStatus?: unknown; apiError?: { code?: unknown; type?: unknown; retryable?: unknown; details?: unknown } };
    };
  };
};

/** The error table's code a tRPC answer carries (null for a success), or the reason it is not a well-formed answer. */
export function judgeTrpcReply(reply: TrpcReply): { code: ErrorCode | null; problem: string | null } {
  if (reply.status >= 500) return { code: null, problem: `a 5xx: ${reply.text.slice(0, 200)}` };
  if (reply.body === undefined) return { code: null, problem: `not JSON: ${reply.text.slice(0, 120)}` };
  const body = reply.body as TrpcErrorBody & { result?: { data?: unknown } };
  if (reply.status < 300)
    return body.result && "data" in body.result ? { code: null, problem: null } : { code: null, problem: "a 2xx without result.data" };
  const error = body.error?.json;
  const apiError = error?.data?.apiError;
  const code = apiError?.code as ErrorCode | undefined;
  if (!code || !(code in errorTable)) return { code: null, problem: `no error-table code: ${reply.text.slice(0, 200)}` };
  const entry = errorTable[code];
  if (entry.status !== reply.status || error?.data?.httpStatus !== reply.status)
    return { code, problem: `${code} sent as HTTP ${reply.status} (httpStatus ${String(error?.data?.httpStatus)})` };
  if (
    entry.type !== apiError?.type ||
    entry.retryable !== apiError?.retryable ||
    typeof apiError?.details !== "object" ||
    typeof error?.message !== "string"
  ) {
    return { code, problem: `${code} body differs from the table: ${reply.text.slice(0, 200)}` };
  }
  return { code, problem: null };
}
