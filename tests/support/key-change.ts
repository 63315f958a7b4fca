import { expect } from "vitest";
import { api, baseUrl, type ApiReply } from "./http";

// A change to a key (revoke, delete, expiry, grace, plan) made outside the app's process reaches
// its key cache through PostgreSQL LISTEN/NOTIFY: after the commit, not at it. The contract is
// "refused on every instance within 1 s" (tests/http/keys/instance-caches.test.ts); a test that changes a
// warmed key and then calls the app waits for the notice this way instead of racing it.

export const KEY_CHANGE_BOUND_MS = 1_000;

/** GETs /v1/status with the key on `base` until it is refused; fails if it is still accepted after 1 s. */
export async function refusedOnceChangeArrives(key: string, base = baseUrl(), changedAt = performance.now()): Promise<ApiReply> {
  for (;;) {
    const reply = await api("/v1/status", { key, base });
    if (reply.status !== 200) return reply;
    if (performance.now() - changedAt > KEY_CHANGE_BOUND_MS) throw new Error(`${base} still accepts the key ${KEY_CHANGE_BOUND_MS} ms after the change`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Same, and asserts the elapsed time stayed inside the bound. */
export async function expectRefusedWithinBound(key: string, base: string, changedAt: number) {
  const reply = await refusedOnceChangeArrives(key, base, changedAt);
  expect(reply.status).toBe(401);
  expect(performance.now() - changedAt).toBeLessThan(KEY_CHANGE_BOUND_MS);
  return reply;
}
