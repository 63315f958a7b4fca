import { ProviderError } from "@/server/providers/types";
import type { ProviderAdapter, ProviderJob, ProviderResult } from "@/server/providers/types";

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
export async function pollUntilSettled(adapter: ProviderAdapter, predictionId: string, job: ProviderJob, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  const seen: ProviderResult["status"][] = [];
  for (;;) {
    const result = await adapter.poll(predictionId, job);
    seen.push(result.status);
    if (result.status !== "running") return { result, seen };
    if (Date.now() > deadline) throw new Error("the job never settled");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
