import { randomUUID } from "node:crypto";
import os from "node:os";

// Who holds a run's lease: `<host>:<pid>:<random>`, one per executor. A lease whose owner is gone
// (its process exited, or a stopped executor of this process) can be taken at once.

type Owners = { owners?: Set<string> };
const OWNERS = Symbol.for("darkroom.executor-lease-owners");

/** Executors alive in this process, by lease owner id. */
export function liveOwners(): Set<string> {
  const holder = ((globalThis as unknown as Record<symbol, Owners>)[OWNERS] ??= {});
  holder.owners ??= new Set();
  return holder.owners;
}

/** A lease owner id: `<host>:<pid>:<random>`. */
export function newOwnerId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** An owner on this host whose process has exited, or a stopped executor of this process: its leases can be taken at once. */
export function isOwnerGone(owner: string): boolean {
  const [host, pid] = owner.split(":");
  if (host !== os.hostname() || liveOwners().has(owner)) return false;
  if (Number(pid) === process.pid) return true;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
