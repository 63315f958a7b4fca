// The time the webhook retry schedule and the embedded executor's wake-ups are read from and armed
// on: the real clock, unless a test swapped in a fake one (tests/support/fake-clock.ts) to run a
// schedule of seconds without waiting for it.

export type Clock = {
  now(): number;
  /** Calls `fire` once `ms` have passed on this clock; the returned function cancels it. Never keeps a process alive. */
  after(ms: number, fire: () => void): () => void;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fire) {
    const timer = setTimeout(fire, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

let current: Clock = systemClock;

/** The clock in use, read at each call, so a swap reaches modules that took it at load. */
export const clock: Clock = {
  now: () => current.now(),
  after: (ms, fire) => current.after(ms, fire),
};

/** Swaps the clock (tests); the returned function puts the real one back. */
export function useClock(next: Clock): () => void {
  current = next;
  return () => {
    current = systemClock;
  };
}
