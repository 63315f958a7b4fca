import { localDiskStorage } from "./local-disk";
import type { OutputStorage } from "./storage";

// Driver selection lives apart from the interface, so drivers never import their chooser.
// An S3 driver joins here once server/env.ts carries its S3_* settings.

const globalForStorage = globalThis as unknown as { darkroomStorage?: OutputStorage };

/** The configured driver (local disk under <DATA_DIR>/files), one per process. */
export function getStorage(): OutputStorage {
  globalForStorage.darkroomStorage ??= localDiskStorage();
  return globalForStorage.darkroomStorage;
}
