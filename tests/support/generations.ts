import { expect } from "vitest";
import { api, expectSuccess } from "@/tests/support/http";

// Polling helpers for the generation suites: clients poll until a terminal state.

export const TERMINAL = ["succeeded", "failed", "canceled"];

export async function createImage(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}, model = "darkroom/lumen-image") {
  return api(`/v1/generate/image/${model}`, { key, method: "POST", body, headers });
}

export async function waitForStatus(key: string, generationId: string, wanted: string[] = TERMINAL, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = expectSuccess(await api(`/v1/content/${generationId}`, { key }));
    if (wanted.includes(last.generation_status)) return last;
    // ~120 polls a minute at most: under every plan's general rate limit but Free's.
    await new Promise((resolve) => setTimeout(resolve, 450));
  }
  expect.fail(`generation ${generationId} stayed ${last?.generation_status} instead of ${wanted.join("/")}`);
}
