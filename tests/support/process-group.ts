import type { ChildProcess } from "node:child_process";

/**
 * Sends `signal` to the process group of `child` (spawned with `detached: true`: the app and the
 * PostgreSQL it started, which may outlive it) and waits up to `waitMs` for the child to exit.
 * True once it has exited.
 */
export async function signalGroup(child: ChildProcess, signal: NodeJS.Signals, waitMs: number): Promise<boolean> {
  if (!child.pid) return true;
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  let timer: NodeJS.Timeout | undefined;
  const exited = hasExited() ? Promise.resolve(true) : new Promise<boolean>((resolve) => child.once("exit", () => resolve(true)));
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
  try {
    return await Promise.race([exited, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
