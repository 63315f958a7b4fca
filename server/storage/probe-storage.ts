import { randomBytes, randomUUID } from "node:crypto";
import type { OutputStorage, StorageDriver, StorageProbe } from "./storage";

// The health probe every driver shares: write a small random object, read it back, delete it.
// Never throws; whatever went wrong, the probe object is not left behind.

export async function probeStorage(storage: Pick<OutputStorage, "put" | "get" | "delete">, driver: StorageDriver): Promise<StorageProbe> {
  const started = performance.now();
  const key = `probes/${randomUUID()}`;
  const payload = randomBytes(32);
  let healthy = false;
  try {
    await storage.put(key, payload, "application/octet-stream");
    const stored = await storage.get(key);
    const roundTripped = stored !== null && Buffer.from(stored.bytes).equals(payload);
    healthy = (await storage.delete(key)) && roundTripped;
  } catch {
    await storage.delete(key).catch(() => false);
  }
  return { healthy, latency_ms: Math.round((performance.now() - started) * 10) / 10, driver };
}
