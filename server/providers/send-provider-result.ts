import "server-only";
import { inngest } from "../inngest/client";
import { providerResultReceived } from "../inngest/events";

/**
 * Wakes the run waiting for a provider job's result. The id names the job and its state, so the
 * callback and the poller reporting the same end send one event between them.
 */
export async function sendProviderResult(generationId: string, provider: string, predictionId: string, status: string) {
  await inngest.send(providerResultReceived.create({ generationId, provider, predictionId }, { id: `provider-result:${provider}:${predictionId}:${status}` }));
}
