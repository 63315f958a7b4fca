import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { errorTable, type ErrorCode } from "@/server/base/error-table";
import type { AnyOperation, DataOf } from "@/server/edge/http/define-operation";
import type { ErrorBody } from "@/server/edge/contract/common";
import type { z } from "zod";

// Talks to the app that `npm test` started (TEST_BASE_URL), as an API client would.

export function baseUrl() {
  const url = process.env.TEST_BASE_URL;
  if (!url) throw new Error("TEST_BASE_URL is not set: run through `npm test`");
  return url;
}

/**
 * A reply as received: the parsed JSON (or the text) in `body`. `Data` is what a success carries,
 * typed when the request was a call of a known operation (`callOperation`); `expectSuccess` returns it.
 */
export type ApiReply<Data = unknown> = { status: number; headers: Headers; body: unknown; readonly dataType?: Data };

export type RequestOptions = {
  key?: string;
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Another app instance's base URL (tests/support/second-instance.ts); the one `npm test` started by default. */
  base?: string;
};

/** A raw request to any path (bad JSON, odd methods, legacy forms, non-/v1 routes); `Data` is the caller's word for a success. */
export async function api<Data = unknown>(path: string, options: RequestOptions = {}): Promise<ApiReply<Data>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined || options.rawBody !== undefined) headers["content-type"] ??= "application/json";
  const response = await fetch(`${options.base ?? baseUrl()}${path}`, {
    method: options.method ?? "GET",
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** Query parameters an operation reads, as a client would send them (any value: tests send bad ones too). */
export type QueryOf<Op extends AnyOperation> = Op["query"] extends z.ZodObject
  ? { [Name in keyof z.input<Op["query"]>]?: string | number | boolean }
  : never;

export type CallOptions<Op extends AnyOperation> = {
  key?: string;
  /** Values of the path template's `{name}` placeholders. */
  params?: Record<string, string>;
  query?: QueryOf<Op>;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Another template for the same operation, e.g. one of its `legacyPaths`; the operation's own by default. */
  path?: string;
};

/** The concrete path of a call: the template's placeholders filled in, the query string appended. */
export function concretePath(
  template: string,
  params: Record<string, string> = {},
  query: Record<string, string | number | boolean | undefined> = {},
) {
  const path = template.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    // Model identifiers keep their slash: they are two path segments.
    return value.split("/").map(encodeURIComponent).join("/");
  });
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
  ).toString();
  return search ? `${path}?${search}` : path;
}

/** Calls `operation` with its method at its path: the reply's success data is typed `DataOf<Op>`. */
export function callOperation<Op extends AnyOperation>(operation: Op, options: CallOptions<Op> = {}): Promise<ApiReply<DataOf<Op>>> {
  const { params, query, path, ...request } = options;
  return api<DataOf<Op>>(concretePath(path ?? operation.path, params, query ?? {}), { ...request, method: operation.method });
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type EnvelopeFields = { status?: unknown; request_id?: string; message?: unknown; timestamp?: string; data?: unknown; error?: ErrorBody };
const envelopeOf = (reply: ApiReply<unknown>) =>
  (typeof reply.body === "object" && reply.body !== null ? reply.body : {}) as EnvelopeFields;

/** The success envelope, checked field by field; returns its data. */
export function expectSuccess<Data>(reply: ApiReply<Data>, status = 200): Data {
  const body = envelopeOf(reply);
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(body.status).toBe("success");
  expect(body.request_id).toMatch(UUID_V4);
  expect(reply.headers.get("x-request-id")).toBe(body.request_id);
  expect(typeof body.message).toBe("string");
  expect(new Date(body.timestamp ?? "").toISOString()).toBe(body.timestamp);
  expect(typeof body.data).toBe("object");
  return body.data as Data;
}

/** The error envelope of `code`: HTTP status, type and retryable as the error table says. */
export function expectError(reply: ApiReply<unknown>, code: ErrorCode): ErrorBody {
  const { status, type, retryable } = errorTable[code];
  const body = envelopeOf(reply);
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.headers.get("content-type")).toContain("application/json");
  expect(body.status).toBe("error");
  expect(body.request_id).toMatch(UUID_V4);
  expect(body.error).toMatchObject({ code, type, retryable });
  expect(typeof body.error?.message).toBe("string");
  expect(typeof body.error?.details).toBe("object");
  return body.error as ErrorBody;
}

/** The fields an ERR1001 names, in order. */
export const invalidFields = (error: ErrorBody) => (error.details.fields ?? []).map((entry) => entry.field);

/** The envelope's request id, whatever the outcome. */
export const requestIdOf = (reply: ApiReply<unknown>) => envelopeOf(reply).request_id;

/** The error code of a reply, or undefined for a success. */
export const errorCodeOf = (reply: ApiReply<unknown>) => envelopeOf(reply).error?.code;

export const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 8)}@test.darkroom.local`;

/** An ISO 8601 date-time in UTC with milliseconds, as every /v1 timestamp is. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
