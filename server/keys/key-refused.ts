import { ApiError } from "../base/error-table";
import type { AuthenticatedKey } from "./authenticated-key";

// A refused key is ERR1002 to the client whatever the reason (no oracle for which keys exist); the
// reason goes to the request log when the key is known. Thrown by the auth checkpoint, and by a
// handler that finds the requesting key deleted or revoked after the checkpoint passed it (the
// change reaches the key caches just after its commit, so a request can land in between).

export class KeyRefused extends ApiError {
  constructor(
    readonly reason: string,
    /** The key the request log names: null for none; undefined keeps the one the checkpoint found. */
    readonly key?: AuthenticatedKey | null,
  ) {
    super("ERR1002", undefined, { reason });
  }
}
