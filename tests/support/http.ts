import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { errorTable, type ErrorCode } from "@/server/errors";

// Talks to the app that `npm test` started (TEST_BASE_URL), as an API client would.

export function baseUrl() {
  const url = process.env.TEST_BASE_URL;
  if (!url) throw new Error("TEST_BASE_URL is not set: run through `npm test`");
  return url;
}

export type ApiReply = { status: number; headers: Headers; body: any };

export async function api(path: string, options: { key?: string; method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}): Promise<ApiReply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined || options.rawBody !== undefined) headers["content-type"] ??= "application/json";
  const response = await fetch(`${baseUrl()}${path}`, {
    method: options.method ?? "GET",
    headers,
    body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The success envelope, checked field by field. */
export function expectSuccess(reply: ApiReply, status = 200) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.body.status).toBe("success");
  expect(reply.body.request_id).toMatch(UUID_V4);
  expect(reply.headers.get("x-request-id")).toBe(reply.body.request_id);
  expect(typeof reply.body.message).toBe("string");
  expect(new Date(reply.body.timestamp).toISOString()).toBe(reply.body.timestamp);
  expect(typeof reply.body.data).toBe("object");
  return reply.body.data;
}

/** The error envelope of `code`: HTTP status, type and retryable as the error table says. */
export function expectError(reply: ApiReply, code: ErrorCode) {
  const { status, type, retryable } = errorTable[code];
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  expect(reply.headers.get("content-type")).toContain("application/json");
  expect(reply.body.status).toBe("error");
  expect(reply.body.request_id).toMatch(UUID_V4);
  expect(reply.body.error).toMatchObject({ code, type, retryable });
  expect(typeof reply.body.error.message).toBe("string");
  expect(typeof reply.body.error.details).toBe("object");
  return reply.body.error;
}

export const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 8)}@test.darkroom.local`;
