// Work a process must finish before it stops (buffered request logs, the key-change listener).
// Modules register a hook by name; the server's SIGTERM/SIGINT path runs them all before the
// database goes. Kept on globalThis: Next's bundle and the boot script load separate copies of
// the modules that register, and the boot script is the one that runs the hooks.

type ShutdownHook = () => Promise<void>;

const globalHooks = globalThis as unknown as { darkroomShutdownHooks?: Map<string, ShutdownHook> };

function hooks() {
  globalHooks.darkroomShutdownHooks ??= new Map();
  return globalHooks.darkroomShutdownHooks;
}

/** Registers (or replaces) the hook called `name`. */
export function onShutdown(name: string, hook: ShutdownHook): void {
  hooks().set(name, hook);
}

/** Runs every hook once, together; a failing hook does not stop the others. */
export async function runShutdownHooks(): Promise<void> {
  const pending = [...hooks().values()];
  hooks().clear();
  await Promise.allSettled(pending.map((hook) => hook()));
}
