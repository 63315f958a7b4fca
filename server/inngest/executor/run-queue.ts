// Runs to drive, at most `concurrency` at once and each by one drive at a time: a run asked for
// while its drive is under way is driven again right after (it may have been resumed meanwhile).
// Fair between functions: each function has its own FIFO lane and free slots go round-robin over
// the lanes, so a backlog of one function (500 webhook deliveries) never holds up another (a
// generation): its run takes the next free slot. A function's own limit (Inngest's `concurrency`
// option, function scope) caps how many of its runs are driven at once.

export class RunQueue {
  /** Waiting runs per function id, oldest first; a lane exists only while it has runs. */
  private readonly lanes = new Map<string, string[]>();
  /** Lanes with waiting runs, in arrival order (ties go to the earlier). */
  private ring: string[] = [];
  /** When each function was last given a slot (a sequence number), kept while the queue lives. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  private readonly functionOf = new Map<string, string>();
  private readonly active = new Set<string>();
  private readonly activeByFunction = new Map<string, number>();
  private readonly again = new Set<string>();
  private readonly drives = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly concurrency: number,
    private readonly drive: (runId: string, functionId: string) => Promise<void>,
    /** A function's own concurrency limit; null: only the executor's. */
    private readonly limitOf: (functionId: string) => number | null = () => null,
  ) {}

  /** Whether the run is queued or being driven (a scan need not schedule it). */
  has(runId: string) {
    return this.functionOf.has(runId);
  }

  /** Runs waiting for a slot (not counting those being driven). */
  get waiting() {
    return this.functionOf.size - this.active.size;
  }

  add(runId: string, functionId: string) {
    if (this.closed) return;
    if (this.active.has(runId)) this.again.add(runId);
    else if (!this.functionOf.has(runId)) {
      this.functionOf.set(runId, functionId);
      const lane = this.lanes.get(functionId);
      if (lane) lane.push(runId);
      else {
        this.lanes.set(functionId, [runId]);
        this.ring.push(functionId);
      }
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

  private eligible(functionId: string) {
    const limit = this.limitOf(functionId);
    return limit === null || (this.activeByFunction.get(functionId) ?? 0) < limit;
  }

  /** The next run to drive: from the eligible lane served longest ago (a new lane first). */
  private take(): { runId: string; functionId: string } | null {
    let index = -1;
    for (let i = 0; i < this.ring.length; i += 1) {
      const functionId = this.ring[i] as string;
      if (!this.eligible(functionId)) continue;
      if (index < 0 || (this.lastServed.get(functionId) ?? 0) < (this.lastServed.get(this.ring[index] as string) ?? 0)) index = i;
    }
    if (index < 0) return null;
    const functionId = this.ring[index] as string;
    const lane = this.lanes.get(functionId) as string[];
    const runId = lane.shift() as string;
    this.lastServed.set(functionId, (this.served += 1));
    if (lane.length === 0) {
      this.ring.splice(index, 1);
      this.lanes.delete(functionId);
    }
    return { runId, functionId };
  }

  private pump() {
    while (this.active.size < this.concurrency) {
      const next = this.closed ? null : this.take();
      if (!next) return;
      const { runId, functionId } = next;
      this.active.add(runId);
      this.activeByFunction.set(functionId, (this.activeByFunction.get(functionId) ?? 0) + 1);
      const drive: Promise<void> = this.drive(runId, functionId).finally(() => {
        this.active.delete(runId);
        this.functionOf.delete(runId);
        const count = (this.activeByFunction.get(functionId) ?? 1) - 1;
        if (count > 0) this.activeByFunction.set(functionId, count);
        else this.activeByFunction.delete(functionId);
        this.drives.delete(drive);
        if (this.again.delete(runId)) this.add(runId, functionId);
        this.pump();
      });
      this.drives.add(drive);
    }
  }
}
