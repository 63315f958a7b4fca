import { env } from "../base/env";
import { localDiskStorage } from "./local-disk";
import { s3ConfigFromEnv, s3Storage } from "./s3";
import type { OutputStorage } from "./storage";

// Driver selection lives apart from the interface, so drivers never import their chooser.

const globalForStorage = globalThis as unknown as { darkroomStorage?: OutputStorage };

/** S3 when S3_BUCKET is set, else local disk under <DATA_DIR>/files; one per process. */
export function getStorage(): OutputStorage {
  globalForStorage.darkroomStorage ??= env().S3_BUCKET ? s3Storage(s3ConfigFromEnv()) : localDiskStorage();
  return globalForStorage.darkroomStorage;
}
