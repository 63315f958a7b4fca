import "server-only";
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  ProviderError,
  type ProviderAdapter,
  type ProviderJob,
  type ProviderOutput,
  type ProviderResult,
  type SubmitResult,
} from "../types";
import type { LocalProviderId } from "../../base/local-provider-faults";
import { planFaults } from "./faults";
import { RenderInputError, RenderTimeoutError } from "./render-errors";
import { renderImage } from "./render-image";
import { renderVideo } from "./render-video";

// The built-in providers `local` and `local-backup`: synchronous, offline,
// deterministic. submit() waits the configured latency, plays any configured fault, then renders
// and returns the finished files in the same call.

export type LocalAdapterOptions = {
  /** Downloads an input file (the SSRF-safe fetcher). Without it, input files are ignored. */
  fetchInput?: (url: string) => Promise<Uint8Array>;
};

/**
 * `<provider>-<uuid>`, derived from (provider, generation, attempt): the run can name the
 * prediction of a submit still in flight (to cancel it), and a retried step reuses the id.
 */
export function localPredictionId(provider: LocalProviderId, job: Pick<ProviderJob, "generationId" | "attempt">): string {
  const hex = createHash("sha256").update(`${provider}\u0000${job.generationId}\u0000${job.attempt}`).digest("hex");
  // Shaped as a UUID version 8 (custom), RFC 9562.
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${provider}-${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function createLocalAdapter(id: LocalProviderId, options: LocalAdapterOptions = {}): ProviderAdapter {
  const inFlight = new Map<string, AbortController>();

  async function fetchInput(url: string | null | undefined): Promise<Uint8Array | undefined> {
    if (!url || !options.fetchInput) return undefined;
    try {
      return await options.fetchInput(url);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      // Every provider would fail to read the same input, so failing over would not help.
      throw new ProviderError(id, "ERR4005", `input file could not be fetched: ${messageOf(error)}`, "input_fetch_failed");
    }
  }

  async function render(job: ProviderJob, signal: AbortSignal): Promise<ProviderOutput[]> {
    const prompt = job.prompt ?? "";
    const firstInput = await fetchInput(job.inputFiles[0]);
    signal.throwIfAborted();
    if (job.model.type === "video") {
      const endImage = job.model.lastFrame ? await fetchInput(job.inputFileLastContent) : undefined;
      const video = await renderVideo({
        prompt,
        ratio: job.ratio,
        durationSeconds: job.durationSeconds ?? job.model.defaultDuration,
        resolution: job.resolution ?? job.model.defaultResolution,
        generateAudio: job.generateAudio && job.model.audioPerSecondMillis !== null,
        seed: job.seed,
        startImage: firstInput,
        endImage,
        signal,
      });
      return [{ kind: "bytes", bytes: video.bytes, contentType: video.contentType }];
    }
    const images = await Promise.all(
      Array.from({ length: job.outputCount }, (_, index) =>
        renderImage({ prompt, ratio: job.ratio, format: job.outputFormat, seed: job.seed, index, inputImage: firstInput }),
      ),
    );
    signal.throwIfAborted();
    return images.map((image) => ({ kind: "bytes", bytes: image.bytes, contentType: image.contentType }));
  }

  async function play(job: ProviderJob, signal: AbortSignal): Promise<ProviderResult> {
    const plan = planFaults(id, job);
    if (plan.outcome === "unavailable")
      throw new ProviderError(id, "ERR4002", "provider unavailable (configured fault)", "fault:unavailable");
    if (plan.latencyMs > 0) await sleep(plan.latencyMs, undefined, { signal });
    switch (plan.outcome) {
      case "fail":
        throw new ProviderError(id, "ERR4002", "provider failed (configured fault)", "fault:fail");
      case "reject":
        throw new ProviderError(id, "ERR4005", "prompt rejected by content policy (configured fault)", "fault:reject");
      case "stall":
        await sleep(plan.stallMs, undefined, { signal });
        throw new ProviderError(id, "ERR4001", `timed out after ${plan.stallMs / 1000} s`, "fault:stall");
    }
    const started = performance.now();
    const outputs = await render(job, signal);
    return { status: "succeeded", outputs, predictTimeSeconds: Math.round(performance.now() - started) / 1000 };
  }

  return {
    id,

    predictionIdFor: (job: ProviderJob) => localPredictionId(id, job),

    async submit(job: ProviderJob): Promise<SubmitResult> {
      const predictionId = localPredictionId(id, job);
      const controller = new AbortController();
      inFlight.get(predictionId)?.abort();
      inFlight.set(predictionId, controller);
      try {
        return { kind: "completed", predictionId, result: await play(job, controller.signal) };
      } catch (error) {
        if (controller.signal.aborted) return { kind: "completed", predictionId, result: { status: "canceled" } };
        throw asProviderError(id, error);
      } finally {
        if (inFlight.get(predictionId) === controller) inFlight.delete(predictionId);
      }
    },

    // Results come back from submit(); there is nothing on the other side to ask.
    async poll(): Promise<ProviderResult> {
      return { status: "failed", error: new ProviderError(id, "ERR4002", "unknown prediction", "not_found") };
    },

    async cancel(predictionId: string): Promise<boolean> {
      inFlight.get(predictionId)?.abort();
      return true;
    },
  };
}

function asProviderError(provider: LocalProviderId, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof RenderInputError) return new ProviderError(provider, "ERR4005", error.message, "invalid_input");
  if (error instanceof RenderTimeoutError) return new ProviderError(provider, "ERR4001", error.message, "render_timeout");
  return new ProviderError(provider, "ERR4002", `render failed: ${messageOf(error)}`, "render_failed");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
