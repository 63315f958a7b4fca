import "server-only";
import type { ProviderId } from "../../catalog/providers";
import { pollDelaysSeconds } from "../../generations/run/provider-chain";
import { pollAcceptedJob } from "../../generations/run/run-attempt";
import { inngest } from "../../base/events/client";
import { providerJobAccepted } from "../../base/events/definitions";

// provider/job.accepted → polls the provider's job on a growing interval (1 s up to 30 s) until it
// ends, the generation leaves flight, or the model's timeout passes. An ended job sends
// provider/result.received, which wakes run-generation's wait; a provider that calls back usually
// gets there first, and a callback that came before the wait registered is covered by this report
// (its own event id). Each poll is a step of its own, never holding a slot between polls.

export const pollProviderJob = inngest.createFunction(
  { id: "poll-provider-job", triggers: [providerJobAccepted], retries: 2 },
  async ({ event, step }) => {
    const { generationId, provider, attempt, predictionId, timeoutSeconds } = event.data;
    for (const [index, delay] of pollDelaysSeconds(timeoutSeconds).entries()) {
      await step.sleep(`wait-${index + 1}`, `${delay}s`);
      const state = await step.run(`poll-${index + 1}`, () =>
        pollAcceptedJob({ generationId, provider: provider as ProviderId, attempt, predictionId }),
      );
      if (state !== "running") return { state, polls: index + 1 };
    }
    return { state: "timed out" };
  },
);
