// Runs to drive, at most `concurrency` at once and each by one drive at a time: a run asked for
// while its drive is under way is driven again right after (it may have been resumed meanwhile).

export class RunQueue {
  private readonly waiting: string[] = [];
  private readonly queued = new Set<string>();
  private readonly active = new Set<string>();
  private readonly again = new Set<string>();
  private readonly drives = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly concurrency: number,
    private readonly drive: (runId: string) => Promise<void>,
  ) {}

  /** Whether the run is queued or being driven (a scan need not schedule it). */
  has(runId: string) {
    return this.queued.has(runId) || this.active.has(runId);
  }

  add(runId: string) {
    if (this.closed) return;
    if (this.active.has(runId)) this.again.add(runId);
    else if (!this.queued.has(runId)) {
      this.queued.add(runId);
      this.waiting.push(runId);
      this.pump();
    }
  }

  /** Takes no more runs; resolves once the drives under way have ended. */
  async close() {
    this.closed = true;
    this.waiting.length = 0;
    this.queued.clear();
    await Promise.allSettled([...this.drives]);
  }

  private pump() {
    while (this.active.size < this.concurrency && this.waiting.length > 0) {
      const runId = this.waiting.shift() as string;
      this.queued.delete(runId);
      this.active.add(runId);
      const drive: Promise<void> = this.drive(runId).finally(() => {
        this.active.delete(runId);
        this.drives.delete(drive);
        if (this.again.delete(runId)) this.add(runId);
        this.pump();
      });
      this.drives.add(drive);
    }
  }
}
