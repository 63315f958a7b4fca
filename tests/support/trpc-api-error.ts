import { TRPCError } from "@trpc/server";
import { expect } from "vitest";
import { ApiError } from "@/server/base/error-table";

/** The error-table body a refused router call carries (its cause is always an ApiError). */
export async function apiErrorOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).cause).toBeInstanceOf(ApiError);
  return ((error as TRPCError).cause as ApiError).toBody();
}
