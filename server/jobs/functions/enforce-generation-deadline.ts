import "server-only";
import { RetryAfterError } from "inngest";
import { expireAtDeadline } from "../../generations/deadline/expire-generation";
import { inngest } from "../../base/events/client";
import { generationDeadlineSet } from "../../base/events/definitions";

// generation/deadline.set (sent in the create's transaction) → sleep until just before the
// generation's Cancel-After deadline, then cancel it at the deadline if it is still in flight
// (expire-generation.ts). The sleep is the executor's and persisted, so the deadline holds across
// restarts and on any instance; the generation's own run races its provider wait against the same
// deadline, and the sweeper catches what both missed. Whichever commits first cancels; the others
// change nothing.

/**
 * Waking this much early pays for the wake itself (claiming the run, replaying it to this step)
 * on a busy machine; the step then waits out the rest in process, so the cancel lands at the deadline.
 */
const WAKE_EARLY_MS = 750;

export const enforceGenerationDeadline = inngest.createFunction(
  { id: "enforce-generation-deadline", triggers: [generationDeadlineSet], retries: 10 },
  async ({ event, step }) => {
    const deadlineMs = Date.parse(event.data.deadlineAt);
    await step.sleepUntil("until-deadline", new Date(deadlineMs - WAKE_EARLY_MS));
    return step.run("cancel-if-in-flight", async () => {
      // Bounded: a clock far behind the deadline's is answered by the retry below instead.
      for (let early = deadlineMs - Date.now(); early > 0 && early <= 2 * WAKE_EARLY_MS; early = deadlineMs - Date.now()) {
        await new Promise((resolve) => setTimeout(resolve, early));
      }
      const result = await expireAtDeadline(event.data.generationId);
      // This instance's clock is behind the one that set the deadline: ask again at the deadline.
      if (result.outcome === "not_due")
        throw new RetryAfterError("the deadline has not passed on this clock yet", new Date(result.deadlineAt));
      return result;
    });
  },
);
