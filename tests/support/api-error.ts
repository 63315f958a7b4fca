import { expect } from "vitest";
import { ApiError } from "@/server/base/error-table";

// Domain calls that must refuse: the ApiError they throw, checked to be one.

/** The ApiError `run` throws; fails the test when it throws anything else or nothing. */
export function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error("expected an ApiError");
}

/** The ApiError `promise` rejects with, checked to carry `code`. */
export async function expectApiError(promise: Promise<unknown>, code: string): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(code);
  return error as ApiError;
}
