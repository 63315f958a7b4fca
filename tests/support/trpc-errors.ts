import { TRPCError } from "@trpc/server";
import { expect } from "vitest";
import { ApiError } from "@/server/base/error-table";

// Dashboard router calls (createCaller) that must refuse: the TRPCError's code and the error
// table's answer it carries.

export async function trpcFailure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const cause = (error as TRPCError).cause;
  expect(cause).toBeInstanceOf(ApiError);
  return { code: (error as TRPCError).code, apiError: (cause as ApiError).toBody() };
}

export async function expectTrpcError(promise: Promise<unknown>, code: "ERR1002" | "ERR1003" | "ERR1006") {
  const trpcCode = { ERR1002: "UNAUTHORIZED", ERR1003: "FORBIDDEN", ERR1006: "NOT_FOUND" }[code];
  const { code: got, apiError } = await trpcFailure(promise);
  expect(apiError.code).toBe(code);
  expect(got).toBe(trpcCode);
}

/** ERR1001 naming `field` (a prefix is enough: "ipAllowlist" matches "ipAllowlist[3]"). */
export async function expectTrpcInvalid(promise: Promise<unknown>, field: string) {
  const { code, apiError } = await trpcFailure(promise);
  expect(code).toBe("BAD_REQUEST");
  expect(apiError.code).toBe("ERR1001");
  const fields = (apiError.details.fields as Array<{ field: string }> | undefined) ?? [];
  expect(
    fields.map((entry) => entry.field).some((name) => name === field || name.startsWith(`${field}.`) || name.startsWith(`${field}[`)),
  ).toBe(true);
}
