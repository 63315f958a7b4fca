import "server-only";
import { getStorage } from "../storage/get-storage";
import type { OutputStorage, StorageDriver } from "../storage/storage";
import { timedCheck } from "./timed-check";

export type StorageHealth = { service: "storage"; healthy: boolean; latency_ms: number; bucket: string; driver: StorageDriver };

/** A real write, read-back and delete through the configured driver, within the check timeout. */
export async function checkStorage(storage: OutputStorage = getStorage()): Promise<StorageHealth> {
  const result = await timedCheck("storage", async () => (await storage.probe()).healthy);
  return { service: "storage", ...result, bucket: storage.bucket, driver: storage.driver };
}
