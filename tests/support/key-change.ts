import { api, baseUrl, type ApiReply } from "./http";
import { until } from "./until";

// A change to a key (revoke, delete, expiry, grace, plan) made outside the app's process reaches
// its key cache through PostgreSQL LISTEN/NOTIFY: after the commit, not at it. The cache keeps no
// expiry, so a refusal proves the notice arrived (tests/http/keys/instance-caches.test.ts); a test
// that changes a warmed key and then calls the app waits for that refusal instead of racing it.

/** GETs /v1/status with the key on `base` until it is refused, and returns that answer. */
export function refusedOnceChangeArrives(key: string, base = baseUrl()): Promise<ApiReply> {
  return until(async () => {
    const reply = await api("/v1/status", { key, base });
    return reply.status !== 200 && reply;
  }, `${base} refusing the changed key`);
}
