import { TRPCError } from "@trpc/server";
import { getErrorShape } from "@trpc/server/unstable-core-do-not-import";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { toDashboardApiError, toTRPCError } from "@/server/edge/api/trpc-errors";
import { authedProcedure, createCallerFactory, createTRPCRouter, publicProcedure } from "@/server/edge/api/trpc";
import { ApiError, type ErrorCode } from "@/server/base/error-table";
import { log } from "@/server/base/log";

// The dashboard speaks the one error table: ApiError → the tRPC code of its HTTP
// status, zod issues → ERR1001 naming the fields, anything else → a redacted ERR5000.

const byStatus: Array<[ErrorCode, TRPCError["code"]]> = [
  ["ERR1001", "BAD_REQUEST"],
  ["ERR1002", "UNAUTHORIZED"],
  ["ERR1003", "FORBIDDEN"],
  ["ERR1004", "PAYMENT_REQUIRED"],
  ["ERR1005", "TOO_MANY_REQUESTS"],
  ["ERR1006", "NOT_FOUND"],
  ["ERR1008", "METHOD_NOT_SUPPORTED"],
  ["ERR1010", "CONFLICT"],
  ["ERR1011", "PAYLOAD_TOO_LARGE"],
  ["ERR1015", "UNSUPPORTED_MEDIA_TYPE"],
  ["ERR4005", "UNPROCESSABLE_CONTENT"],
  ["ERR3001", "SERVICE_UNAVAILABLE"],
  ["ERR5000", "INTERNAL_SERVER_ERROR"],
];

describe("toTRPCError", () => {
  it.each(byStatus)("maps %s to %s, keeping the ApiError as the cause", (code, trpcCode) => {
    const apiError = new ApiError(code, "told the user", { field: "x" });
    const error = toTRPCError(apiError);
    expect(error.code).toBe(trpcCode);
    expect(error.message).toBe("told the user");
    expect(error.cause).toBe(apiError);
  });

  it("passes an ApiError already wrapped in a TRPCError through unchanged", () => {
    const apiError = new ApiError("ERR1006", "Webhook endpoint not found.");
    const error = toTRPCError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: apiError }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.cause).toBe(apiError);
  });

  it("turns zod issues into ERR1001 naming every field, nested paths dotted", () => {
    const parsed = z
      .object({ url: z.string().max(3), page: z.object({ limit: z.int().min(1) }) })
      .safeParse({ url: "https://x", page: { limit: 0 } });
    expect(parsed.success).toBe(false);
    const error = toTRPCError(new TRPCError({ code: "BAD_REQUEST", cause: parsed.error }));
    expect(error.code).toBe("BAD_REQUEST");
    const apiError = error.cause as ApiError;
    expect(apiError.code).toBe("ERR1001");
    expect(apiError.message).toMatch(/^url: /);
    expect(apiError.details).toEqual({
      fields: [
        { field: "url", message: expect.any(String) },
        { field: "page.limit", message: expect.any(String) },
      ],
    });
  });

  it.each([
    ["UNSUPPORTED_MEDIA_TYPE", "ERR1015", "UNSUPPORTED_MEDIA_TYPE"],
    ["PAYLOAD_TOO_LARGE", "ERR1011", "PAYLOAD_TOO_LARGE"],
    ["METHOD_NOT_SUPPORTED", "ERR1008", "METHOD_NOT_SUPPORTED"],
    ["NOT_FOUND", "ERR1006", "NOT_FOUND"],
    ["BAD_REQUEST", "ERR1001", "BAD_REQUEST"],
  ] as const)("answers tRPC's own %s refusal with %s, a client error (never ERR5000)", (refusal, code, trpcCode) => {
    const error = toTRPCError(new TRPCError({ code: refusal, message: "tRPC's own words" }));
    expect((error.cause as ApiError).code).toBe(code);
    expect(error.code).toBe(trpcCode);
  });

  it("answers a redacted ERR5000 for an unknown error, and logs what it was", () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    const error = toTRPCError(new Error("connection to postgres://admin:hunter2@db failed"));
    expect(error.code).toBe("INTERNAL_SERVER_ERROR");
    const apiError = error.cause as ApiError;
    expect(apiError.code).toBe("ERR5000");
    expect(apiError.message).toBe("An internal error occurred.");
    expect(JSON.stringify(apiError.toBody())).not.toContain("hunter2");
    expect(logged).toHaveBeenCalledWith("dashboard request failed", { error: expect.stringContaining("hunter2") });
    logged.mockRestore();
  });

  it("gives tRPC's own failures their table codes: bad JSON, unknown procedure, wrong method", () => {
    expect(toDashboardApiError(new TRPCError({ code: "PARSE_ERROR" })).code).toBe("ERR1001");
    expect(toDashboardApiError(new TRPCError({ code: "NOT_FOUND" })).code).toBe("ERR1006");
    expect(toDashboardApiError(new TRPCError({ code: "METHOD_NOT_SUPPORTED" })).code).toBe("ERR1008");
  });
});

describe("procedures", () => {
  const router = createTRPCRouter({
    failsWith: publicProcedure.input(z.object({ code: z.string() })).query(({ input }) => {
      throw new ApiError(input.code as ErrorCode);
    }),
    crashes: publicProcedure.query(() => {
      throw new TypeError("cannot read secret_token of undefined");
    }),
    takesALimit: publicProcedure.input(z.object({ limit: z.int().max(100) })).query(({ input }) => input.limit),
    signedIn: authedProcedure.query(({ ctx }) => ctx.userId),
  });
  const caller = createCallerFactory(router);

  async function failure(promise: Promise<unknown>) {
    const error = await promise.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(TRPCError);
    return error as TRPCError;
  }

  it("leave with the ApiError as the cause and the matching code", async () => {
    const error = await failure(caller({ userId: "u" }).failsWith({ code: "ERR1003" }));
    expect(error.code).toBe("FORBIDDEN");
    expect((error.cause as ApiError).code).toBe("ERR1003");
  });

  it("refuse input failing its schema with ERR1001 naming the field", async () => {
    const error = await failure(caller({ userId: "u" }).takesALimit({ limit: 1000 }));
    expect(error.code).toBe("BAD_REQUEST");
    expect((error.cause as ApiError).details).toEqual({ fields: [{ field: "limit", message: expect.any(String) }] });
  });

  it("refuse a signed-out caller with ERR1002", async () => {
    const error = await failure(caller({ userId: null }).signedIn());
    expect(error.code).toBe("UNAUTHORIZED");
    expect((error.cause as ApiError).code).toBe("ERR1002");
  });

  it("show the browser the table's error body in data.apiError, redacted for a crash", async () => {
    const logged = vi.spyOn(log, "error").mockImplementation(() => {});
    const error = await failure(caller({ userId: "u" }).crashes());
    logged.mockRestore();
    const shape = getErrorShape({ config: router._def._config, error, type: "query", path: "crashes", input: undefined, ctx: undefined });
    expect(shape.message).toBe("An internal error occurred.");
    expect(shape.data).toMatchObject({
      code: "INTERNAL_SERVER_ERROR",
      httpStatus: 500,
      path: "crashes",
      apiError: { code: "ERR5000", type: "internal_error", message: "An internal error occurred.", retryable: true, details: {} },
    });
    expect(JSON.stringify(shape)).not.toContain("secret_token");

    const notFound = await failure(caller({ userId: "u" }).failsWith({ code: "ERR1006" }));
    const notFoundShape = getErrorShape({
      config: router._def._config,
      error: notFound,
      type: "query",
      path: "failsWith",
      input: undefined,
      ctx: undefined,
    });
    expect(notFoundShape.data).toMatchObject({ httpStatus: 404, apiError: { code: "ERR1006", type: "not_found", retryable: false } });
  });
});
