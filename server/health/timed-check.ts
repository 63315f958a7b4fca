import "server-only";
import { log } from "../base/log";

// Health checks answer within a bound: a hung dependency reports unhealthy, not a hung request.

export const HEALTH_CHECK_TIMEOUT_MS = 3_000;

export type TimedResult = { healthy: boolean; latency_ms: number };

/** Runs `check`; unhealthy when it returns false, throws or outlasts the timeout. Never throws. */
export async function timedCheck(name: string, check: () => Promise<boolean>, timeoutMs = HEALTH_CHECK_TIMEOUT_MS): Promise<TimedResult> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  let healthy = false;
  try {
    healthy = await Promise.race([check(), timeout]);
  } catch (error) {
    log.warn("health check failed", { check: name, error: error instanceof Error ? error.message : String(error) });
  } finally {
    clearTimeout(timer);
  }
  return { healthy, latency_ms: elapsedMs(started) };
}

export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
