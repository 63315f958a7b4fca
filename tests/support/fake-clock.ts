import type { Clock } from "@/server/base/clock";

// A clock that moves only when the test moves it (server/base/clock.ts): the webhook retry schedule and
// the executor's wake-ups run on it in their suites, so a schedule of seconds is checked to the
// millisecond without waiting for it.

type Pending = { at: number; fire: () => void };

export class FakeClock implements Clock {
  private time: number;
  private readonly pending = new Set<Pending>();
  /** How early a timer fires by this clock (Node arms setTimeout from the loop's cached time). */
  earlyByMs = 0;

  constructor(startMs = Date.now()) {
    this.time = startMs;
  }

  now() {
    return this.time;
  }

  after(ms: number, fire: () => void) {
    const timer = { at: this.time + Math.max(0, ms), fire };
    this.pending.add(timer);
    return () => void this.pending.delete(timer);
  }

  /** The time the next timer fires, or null when none is armed. */
  nextTimerAt(): number | null {
    let next: number | null = null;
    for (const { at } of this.pending) next = next === null ? at : Math.min(next, at);
    return next === null ? null : next - this.earlyByMs;
  }

  /** Moves to the next timer's time and fires it (and any due with it); false when none is armed. */
  fireNext(): boolean {
    const next = this.nextTimerAt();
    if (next === null) return false;
    this.advanceTo(next);
    return true;
  }

  /** Moves the time forward to `ms`, firing in order every timer due by then. */
  advanceTo(ms: number) {
    for (;;) {
      const next = this.nextTimerAt();
      if (next === null || next > ms) break;
      this.time = Math.max(this.time, next);
      for (const timer of [...this.pending].filter((each) => each.at - this.earlyByMs <= this.time).sort((a, b) => a.at - b.at)) {
        this.pending.delete(timer);
        timer.fire();
      }
    }
    this.time = Math.max(this.time, ms);
  }

  advance(ms: number) {
    this.advanceTo(this.time + ms);
  }
}
