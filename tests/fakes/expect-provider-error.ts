import { ProviderError } from "@/server/providers/types";
import type { ProviderAdapter, ProviderJob, ProviderResult } from "@/server/providers/types";
import { until } from "@/tests/support/until";

/** The ProviderError a call rejects with; fails the test when it resolves or throws anything else. */
export async function providerErrorOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw new Error(`expected a ProviderError, got ${String(error)}`);
  }
  throw new Error("expected a ProviderError, but the call succeeded");
}

/** Polls until the job leaves `running`, as the generation run does, only faster. */
export async function pollUntilSettled(adapter: ProviderAdapter, predictionId: string, job: ProviderJob) {
  const seen: ProviderResult["status"][] = [];
  const result = await until(async () => {
    const polled = await adapter.poll(predictionId, job);
    seen.push(polled.status);
    return polled.status !== "running" && polled;
  }, `job ${predictionId} no longer running`);
  return { result, seen };
}
