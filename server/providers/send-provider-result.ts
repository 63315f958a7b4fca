import "server-only";
import { inngest } from "../base/events/client";
import { providerResultReceived } from "../base/events/definitions";

/**
 * Wakes the run waiting for a provider job's result. The id names who reports (the provider's
 * callback or our poller), the job and its state: a repeated callback is one event, and the
 * poller's report is not deduplicated against a callback that came before the run's wait was
 * registered (a wait sees only events received after it), so a missed callback costs one poll
 * interval, not the model's timeout.
 */
export async function sendProviderResult(
  source: "callback" | "poll",
  generationId: string,
  provider: string,
  predictionId: string,
  status: string,
) {
  await inngest.send(
    providerResultReceived.create(
      { generationId, provider, predictionId },
      { id: `provider-result:${source}:${provider}:${predictionId}:${status}` },
    ),
  );
}
