import type { Clock } from "../../base/clock";

// Millisecond timers keyed by run id or cron trigger, on the executor's clock. The earliest time
// asked for a key wins; the clock's timers never keep a process (the CLI, vitest) alive.

const MAX_DELAY = 2_147_483_647; // setTimeout's limit (~24.8 days)

export class Timers {
  private readonly timers = new Map<string, { at: number; cancel: () => void }>();

  constructor(private readonly clock: Clock) {}

  at(key: string, at: number, fire: () => void) {
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) existing.cancel();
    const delay = Math.max(0, at - this.clock.now());
    const cancel = this.clock.after(Math.min(delay, MAX_DELAY), () => {
      this.timers.delete(key);
      // Past setTimeout's limit, or early: Node counts from the loop's cached time, not from now().
      if (this.clock.now() < at) this.at(key, at, fire);
      else fire();
    });
    this.timers.set(key, { at, cancel });
  }

  has(key: string) {
    return this.timers.has(key);
  }

  clear(key: string) {
    const existing = this.timers.get(key);
    if (existing) existing.cancel();
    this.timers.delete(key);
  }

  clearAll() {
    for (const { cancel } of this.timers.values()) cancel();
    this.timers.clear();
  }
}
