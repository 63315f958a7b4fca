import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { findModel, type ModelDefinition } from "@/server/catalog";
import { localAdapter, localBackupAdapter } from "@/server/providers/local";
import { createLocalAdapter, localPredictionId } from "@/server/providers/local/local-adapter";
import { setLocalProviderFaults } from "@/server/providers/local/faults";
import { readMp4Summary } from "@/server/providers/local/mp4-summary";
import { ProviderError, type ProviderJob, type ProviderOutput, type SubmitResult } from "@/server/providers/types";

// The built-in providers through the adapter contract, with real renders and configured faults.

const lumenImage = findModel("darkroom/lumen-image") as ModelDefinition;
const lumenVideo = findModel("darkroom/lumen-video") as ModelDefinition;
let sequence = 0;

function imageJob(overrides: Partial<ProviderJob> = {}): ProviderJob {
  return {
    generationId: `gen-${process.pid}-${++sequence}`,
    attempt: 1,
    model: lumenImage,
    providerModelId: "lumen-image",
    prompt: "A lighthouse on a cliff at dusk",
    ratio: "16:9",
    outputFormat: "png",
    outputCount: 1,
    durationSeconds: null,
    resolution: null,
    generateAudio: false,
    inputFiles: [],
    inputFileLastContent: null,
    seed: 1234,
    callbackUrl: "http://127.0.0.1/api/providers/local/callback",
    ...overrides,
  };
}

const videoJob = (overrides: Partial<ProviderJob> = {}) =>
  imageJob({
    model: lumenVideo,
    providerModelId: "lumen-video",
    outputFormat: "mp4",
    durationSeconds: 2,
    resolution: "480p",
    ...overrides,
  });

function outputsOf(submitted: SubmitResult): Extract<ProviderOutput, { kind: "bytes" }>[] {
  if (submitted.kind !== "completed" || submitted.result.status !== "succeeded")
    throw new Error(`not a success: ${JSON.stringify(submitted)}`);
  return submitted.result.outputs.map((output) => {
    if (output.kind !== "bytes") throw new Error("expected bytes");
    return output;
  });
}

async function providerErrorOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

const png = (color: string) =>
  sharp({ create: { width: 32, height: 32, channels: 3, background: color } })
    .png()
    .toBuffer();

afterEach(() => setLocalProviderFaults(null));

describe("local adapter: success", () => {
  it("renders N distinct images of the requested format synchronously", async () => {
    const job = imageJob({ outputCount: 3, outputFormat: "webp" });
    const submitted = await localAdapter.submit(job);
    expect(submitted).toMatchObject({ kind: "completed", predictionId: localPredictionId("local", job) });
    expect(submitted.predictionId).toMatch(/^local-[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const outputs = outputsOf(submitted);
    expect(outputs).toHaveLength(3);
    for (const output of outputs) {
      expect(output.contentType).toBe("image/webp");
      expect(Buffer.from(output.bytes.subarray(8, 12)).toString("latin1")).toBe("WEBP");
      expect(await sharp(output.bytes).metadata()).toMatchObject({ width: 1024, height: 576 });
    }
    expect(new Set(outputs.map((output) => Buffer.from(output.bytes).toString("base64"))).size).toBe(3);
    if (submitted.kind === "completed" && submitted.result.status === "succeeded") {
      expect(submitted.result.predictTimeSeconds).toBeGreaterThanOrEqual(0);
    }
  });

  it("is deterministic per seed: the same job renders the same bytes on either provider", async () => {
    const job = imageJob({ outputFormat: "jpg" });
    const [first, second] = [outputsOf(await localAdapter.submit(job)), outputsOf(await localBackupAdapter.submit(job))];
    expect(first[0]?.contentType).toBe("image/jpeg");
    expect(Buffer.from(first[0]!.bytes).equals(Buffer.from(second[0]!.bytes))).toBe(true);
  });

  it("renders one MP4 for a video job, with audio when asked", async () => {
    const submitted = await localBackupAdapter.submit(videoJob({ generateAudio: true }));
    expect(submitted.predictionId.startsWith("local-backup-")).toBe(true);
    const outputs = outputsOf(submitted);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]?.contentType).toBe("video/mp4");
    const summary = readMp4Summary(outputs[0]!.bytes);
    expect(summary.durationSeconds).toBe(2);
    expect(summary.tracks.map((track) => track.handler)).toEqual(["vide", "soun"]);
    expect(summary.tracks[0]).toMatchObject({ height: 480 });
  });

  it("fetches input files through the injected fetcher, and ignores them without one", async () => {
    // The app's own instances use the SSRF-safe fetcher (server/providers/local/index.ts).
    const requested: string[] = [];
    const green = await png("#00ff00");
    const withFetcher = createLocalAdapter("local", {
      fetchInput: async (url) => {
        requested.push(url);
        return green;
      },
    });
    const job = imageJob({ inputFiles: ["https://example.com/input.png"] });
    const blended = outputsOf(await withFetcher.submit(job))[0]!;
    const withoutFetcher = createLocalAdapter("local");
    const ignored = outputsOf(await withoutFetcher.submit(job))[0]!;
    const plain = outputsOf(await withoutFetcher.submit({ ...job, inputFiles: [] }))[0]!;
    expect(requested).toEqual(["https://example.com/input.png"]);
    expect(Buffer.from(blended.bytes).equals(Buffer.from(plain.bytes))).toBe(false);
    expect(Buffer.from(ignored.bytes).equals(Buffer.from(plain.bytes))).toBe(true);
  });

  it("fetches the start and last frames of a video", async () => {
    const requested: string[] = [];
    const adapter = createLocalAdapter("local", {
      fetchInput: async (url) => {
        requested.push(url);
        return png(url.endsWith("last.png") ? "#0000ff" : "#ff0000");
      },
    });
    const job = videoJob({ inputFiles: ["https://example.com/first.png"], inputFileLastContent: "https://example.com/last.png" });
    expect(outputsOf(await adapter.submit(job))).toHaveLength(1);
    expect(requested.sort()).toEqual(["https://example.com/first.png", "https://example.com/last.png"]);
  });

  it("rejects (ERR4005) an input that cannot be fetched or read", async () => {
    const failing = createLocalAdapter("local", {
      fetchInput: async () => {
        throw new Error("connection refused");
      },
    });
    const garbage = createLocalAdapter("local", { fetchInput: async () => new TextEncoder().encode("<html>") });
    const job = imageJob({ inputFiles: ["https://example.com/input.png"] });
    expect((await providerErrorOf(failing.submit(job))).code).toBe("ERR4005");
    const unreadable = await providerErrorOf(garbage.submit(job));
    expect(unreadable).toMatchObject({ code: "ERR4005", provider: "local", providerDetail: "invalid_input" });
  });

  it("poll knows no predictions and cancel always acknowledges", async () => {
    const polled = await localAdapter.poll("local-unknown", imageJob());
    expect(polled.status).toBe("failed");
    if (polled.status === "failed") expect(polled.error.code).toBe("ERR4002");
    expect(await localAdapter.cancel("local-unknown")).toBe(true);
  });
});

describe("local adapter: configured faults", () => {
  it.each([
    [{ failRate: 1 }, "ERR4002", "fault:fail", true],
    [{ rejectRate: 1 }, "ERR4005", "fault:reject", false],
    [{ unavailable: true }, "ERR4002", "fault:unavailable", true],
  ] as const)("%j fails every attempt with %s", async (faults, code, detail, failover) => {
    setLocalProviderFaults({ local: faults });
    for (let attempt = 1; attempt <= 3; attempt++) {
      const error = await providerErrorOf(localAdapter.submit(imageJob({ attempt })));
      expect(error).toMatchObject({ code, provider: "local", providerDetail: detail });
      expect(error.failover).toBe(failover);
    }
  });

  it("fails only the configured provider, so the backup still renders", async () => {
    setLocalProviderFaults({ local: { failRate: 1 } });
    const job = imageJob();
    await providerErrorOf(localAdapter.submit(job));
    expect(outputsOf(await localBackupAdapter.submit({ ...job, attempt: 2 }))).toHaveLength(1);
  });

  it("rates of 0 always render", async () => {
    setLocalProviderFaults({ local: { failRate: 0, rejectRate: 0, stallRate: 0 } });
    expect(outputsOf(await localAdapter.submit(imageJob()))).toHaveLength(1);
  });

  it("waits at least the configured latency", async () => {
    setLocalProviderFaults({ local: { latencyMs: [150, 250] } });
    const started = performance.now();
    await localAdapter.submit(imageJob());
    expect(performance.now() - started).toBeGreaterThanOrEqual(149);
  });

  it("turns a stall into a timeout (ERR4001) after stallMs", async () => {
    setLocalProviderFaults({ local: { stallRate: 1, stallMs: 200 } });
    const started = performance.now();
    const error = await providerErrorOf(localAdapter.submit(imageJob()));
    expect(error).toMatchObject({ code: "ERR4001", providerDetail: "fault:stall" });
    expect(error.message).toContain("timed out");
    expect(performance.now() - started).toBeGreaterThanOrEqual(199);
  });
});

describe("local adapter: cancel", () => {
  // The waits abandoned here are 10 minutes, past the test's timeout: only the cancel can end them in time.
  const TEN_MINUTES_MS = 600_000;

  async function cancelAfter(job: ProviderJob, delayMs: number) {
    const submitted = localAdapter.submit(job);
    // A cancel that comes some way into the submit, not a wait for a state.
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    expect(await localAdapter.cancel(localPredictionId("local", job))).toBe(true);
    return { result: await submitted };
  }

  it("abandons a slow submit during its latency wait", async () => {
    setLocalProviderFaults({ local: { latencyMs: TEN_MINUTES_MS } });
    const { result } = await cancelAfter(imageJob(), 50);
    expect(result).toMatchObject({ kind: "completed", result: { status: "canceled" } });
  });

  it("abandons a stalled submit", async () => {
    setLocalProviderFaults({ local: { stallRate: 1, stallMs: TEN_MINUTES_MS } });
    const { result } = await cancelAfter(imageJob(), 50);
    expect(result).toMatchObject({ result: { status: "canceled" } });
  });

  it("stops a video render in progress", async () => {
    const { result } = await cancelAfter(videoJob({ durationSeconds: 6, resolution: "720p", generateAudio: true }), 60);
    expect(result).toMatchObject({ result: { status: "canceled" } });
  });
});
