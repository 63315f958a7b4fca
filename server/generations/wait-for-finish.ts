import "server-only";
import type pg from "pg";
import type { OneAccount } from "../base/account-scope";
import type { PlanName } from "../plans/plan-limits";
import { changeFeed } from "../base/change-feed";
import { addWaiter, waitersReleased, wakeWaiters } from "./finish-waiters";
import type { GenerationRecord } from "./records/public-record";
import { readGenerationRecord } from "./records/find-public-record";

// For a create sent with `Prefer: wait`: the generation's record once it is finished, or as it
// stands when the wait runs out (or the server shuts down). Whichever instance runs the
// generation, the trigger of migration generation_finished_notify announces its terminal
// transition on darkroom_generation_finished when it commits, and the waiter reads the record at
// once. The record is also read every second the wait lasts, so a missed notice (the listener
// reconnecting) costs at most a second.

export const GENERATION_FINISHED_CHANNEL = "darkroom_generation_finished";
const RECHECK_MS = 1_000;
const TERMINAL = new Set(["succeeded", "failed", "canceled"]);

const feed = changeFeed({
  name: "finish-waiters",
  channel: GENERATION_FINISHED_CHANNEL,
  onNotice: (generationId) => wakeWaiters(generationId),
  // Notices may have been missed: everyone reads again.
  onReset: () => wakeWaiters(),
});

export async function waitForFinish(
  pool: pg.Pool,
  scope: OneAccount,
  input: { generationId: string; plan: PlanName; seconds: number },
): Promise<GenerationRecord> {
  const { generationId, plan, seconds } = input;
  const deadline = Date.now() + seconds * 1000;
  // Listening before the first read: a transition after it is announced to this waiter.
  await feed.ready(Math.min(1_000, seconds * 1000));
  let woken = false;
  let resume: (() => void) | null = null;
  const remove = addWaiter(generationId, {
    wake: () => {
      woken = true;
      resume?.();
    },
  });
  try {
    for (;;) {
      woken = false;
      const record = await readGenerationRecord(pool, scope, { generationId, plan });
      const left = deadline - Date.now();
      if (TERMINAL.has(record.generation_status) || left <= 0 || waitersReleased()) return record;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(RECHECK_MS, left));
        resume = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      resume = null;
    }
  } finally {
    remove();
  }
}
