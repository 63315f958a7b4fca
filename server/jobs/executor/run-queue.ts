// Runs to drive, at most `concurrency` at once and each by one drive at a time: a run asked for
// while its drive is under way is driven again right after (it may have been resumed meanwhile).
// Fair between functions: each function has its own lane and free slots go round-robin over the
// lanes, so a backlog of one function (500 webhook deliveries) never holds up another (a
// generation): its run takes the next free slot. Fair within a function too: a lane holds one
// first-in-first-out queue per concurrency key (Inngest's keyed `concurrency`, e.g. the account)
// served in turn, so one account's burst, or 300 runs the sweeper re-sends at once, does not hold
// up another account's generation. A function's own limit caps how many of its runs are driven at
// once, its keyed limit how many of one key's.

/** Waiting runs per concurrency key, oldest first, keys in arrival order; a key is here only while it has runs. */
type Lane = Map<string, string[]>;

/** How many keys' last service is remembered (the least recently served are forgotten first). */
const KEYS_REMEMBERED = 10_000;

export type QueueLimits = {
  /** A function's own concurrency limit; null: only the executor's. */
  ofFunction: (functionId: string) => number | null;
  /** The limit per concurrency key of a function; null: none. */
  ofKey: (functionId: string) => number | null;
};

const NO_LIMITS: QueueLimits = { ofFunction: () => null, ofKey: () => null };

export class RunQueue {
  private readonly lanes = new Map<string, Lane>();
  /** Functions with waiting runs, in arrival order (ties go to the earlier). */
  private ring: string[] = [];
  /** When each function was last given a slot (a sequence number), kept while the queue lives. */
  private readonly lastServed = new Map<string, number>();
  /** The same per (function, key), least recently served first. */
  private readonly keyServed = new Map<string, number>();
  private served = 0;
  private readonly functionOf = new Map<string, string>();
  private readonly active = new Set<string>();
  private readonly activeByFunction = new Map<string, number>();
  private readonly activeByKey = new Map<string, number>();
  private readonly again = new Set<string>();
  private readonly drives = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly concurrency: number,
    private readonly drive: (runId: string, functionId: string) => Promise<void>,
    private readonly limits: QueueLimits = NO_LIMITS,
  ) {}

  /** Whether the run is queued or being driven (a scan need not schedule it). */
  has(runId: string) {
    return this.functionOf.has(runId);
  }

  /** Runs waiting for a slot (not counting those being driven). */
  get waiting() {
    return this.functionOf.size - this.active.size;
  }

  /** `key`: the run's concurrency key within its function ("" when it has none or it is not known). */
  add(runId: string, functionId: string, key = "") {
    if (this.closed) return;
    if (this.active.has(runId)) this.again.add(runId);
    else if (!this.functionOf.has(runId)) {
      this.functionOf.set(runId, functionId);
      let lane = this.lanes.get(functionId);
      if (!lane) {
        lane = new Map();
        this.lanes.set(functionId, lane);
        this.ring.push(functionId);
      }
      const runs = lane.get(key);
      if (runs) runs.push(runId);
      else lane.set(key, [runId]);
      this.pump();
    }
  }

  /** Takes no more runs; resolves once the drives under way have ended. */
  async close() {
    this.closed = true;
    this.lanes.clear();
    this.ring = [];
    for (const runId of [...this.functionOf.keys()]) if (!this.active.has(runId)) this.functionOf.delete(runId);
    await Promise.allSettled([...this.drives]);
  }

  private keyEligible(functionId: string, key: string) {
    const limit = this.limits.ofKey(functionId);
    return limit === null || (this.activeByKey.get(`${functionId}\u0000${key}`) ?? 0) < limit;
  }

  /** The key whose run goes next in a lane: the one served longest ago under its limit (a new key first), or null. */
  private nextKey(functionId: string, lane: Lane): string | null {
    const limit = this.limits.ofFunction(functionId);
    if (limit !== null && (this.activeByFunction.get(functionId) ?? 0) >= limit) return null;
    let next: string | null = null;
    let nextServed = Infinity;
    for (const key of lane.keys()) {
      if (!this.keyEligible(functionId, key)) continue;
      const served = this.keyServed.get(`${functionId}\u0000${key}`) ?? 0;
      if (served < nextServed) [next, nextServed] = [key, served];
    }
    return next;
  }

  /** The next run to drive: from the eligible lane served longest ago (a new lane first). */
  private take(): { runId: string; functionId: string; key: string } | null {
    let index = -1;
    let key: string | null = null;
    for (let i = 0; i < this.ring.length; i += 1) {
      const functionId = this.ring[i] as string;
      const candidate = this.nextKey(functionId, this.lanes.get(functionId) as Lane);
      if (candidate === null) continue;
      if (index < 0 || (this.lastServed.get(functionId) ?? 0) < (this.lastServed.get(this.ring[index] as string) ?? 0))
        [index, key] = [i, candidate];
    }
    if (index < 0 || key === null) return null;
    const functionId = this.ring[index] as string;
    const lane = this.lanes.get(functionId) as Lane;
    const runs = lane.get(key) as string[];
    const runId = runs.shift() as string;
    if (runs.length === 0) lane.delete(key);
    this.served += 1;
    this.lastServed.set(functionId, this.served);
    const keyName = `${functionId}\u0000${key}`;
    this.keyServed.delete(keyName);
    this.keyServed.set(keyName, this.served);
    if (this.keyServed.size > KEYS_REMEMBERED) this.keyServed.delete(this.keyServed.keys().next().value as string);
    if (lane.size === 0) {
      this.ring.splice(index, 1);
      this.lanes.delete(functionId);
    }
    return { runId, functionId, key };
  }

  private count(counts: Map<string, number>, name: string, delta: number) {
    const next = (counts.get(name) ?? 0) + delta;
    if (next > 0) counts.set(name, next);
    else counts.delete(name);
  }

  private pump() {
    while (this.active.size < this.concurrency) {
      const next = this.closed ? null : this.take();
      if (!next) return;
      const { runId, functionId, key } = next;
      const keyName = `${functionId}\u0000${key}`;
      this.active.add(runId);
      this.count(this.activeByFunction, functionId, 1);
      this.count(this.activeByKey, keyName, 1);
      const drive: Promise<void> = this.drive(runId, functionId).finally(() => {
        this.active.delete(runId);
        this.functionOf.delete(runId);
        this.count(this.activeByFunction, functionId, -1);
        this.count(this.activeByKey, keyName, -1);
        this.drives.delete(drive);
        if (this.again.delete(runId)) this.add(runId, functionId, key);
        this.pump();
      });
      this.drives.add(drive);
    }
  }
}
