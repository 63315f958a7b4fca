// Millisecond timers keyed by run id or cron trigger. The earliest time asked for a key wins; every
// timer is unref'd, so an idle executor never keeps a process (the CLI, vitest) alive.

const MAX_DELAY = 2_147_483_647; // setTimeout's limit (~24.8 days)

export class Timers {
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  constructor(private readonly now: () => number) {}

  at(key: string, at: number, fire: () => void) {
    const existing = this.timers.get(key);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const delay = Math.max(0, at - this.now());
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        // Past setTimeout's limit, or early: Node counts from the loop's cached time, not from now().
        if (this.now() < at) this.at(key, at, fire);
        else fire();
      },
      Math.min(delay, MAX_DELAY),
    );
    timer.unref();
    this.timers.set(key, { at, timer });
  }

  has(key: string) {
    return this.timers.has(key);
  }

  clear(key: string) {
    const existing = this.timers.get(key);
    if (existing) clearTimeout(existing.timer);
    this.timers.delete(key);
  }

  clearAll() {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
