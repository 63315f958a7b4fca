import http from "node:http";
import { processTreeRssMb } from "./process-rss";

// BENCH_ONLY=live-memory (issue #43): the server's RSS under a burst of events with 100 streams
// open, first 100 clients that read (the baseline), then 100 that read nothing. A stream whose
// client falls 4 MiB behind is ended by the server; the figure is how far RSS rises either way
// (sampled every 100 ms), and how many of the non-reading streams the server ended; then 100
// non-reading clients resuming from before both bursts (the backlog is sent as they take it).

export type LiveMemoryBenchInput = {
  baseUrl: string;
  appPid: number;
  key: string;
  /** A generation of the key's account with record events of ~5 KB (a long prompt). */
  generationId: string;
  burst(generationId: string, count: number): Promise<void>;
};

const STREAMS = 100;
const BURST = Number(process.env.BENCH_LIVE_BURST ?? 2_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type BenchStream = { received(): number; bytes(): number; firstId(): string | null; ended: Promise<void>; resume(): void; close(): void };

/** A raw stream on its own socket counting the burst's events; `paused`: reads nothing until resumed. */
function openStream(url: string, key: string, paused: boolean, lastEventId?: string): Promise<BenchStream> {
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${key}`,
      accept: "text/event-stream",
      ...(lastEventId ? { "last-event-id": lastEventId } : {}),
    };
    const request = http.get(url, { headers, agent: false }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
      if (paused) response.pause();
      let events = 0;
      let bytes = 0;
      let partial = "";
      let firstId: string | null = null;
      response.setEncoding("utf8");
      const ended = new Promise<void>((done) => response.once("close", () => done()));
      response.on("data", (chunk: string) => {
        bytes += chunk.length;
        const blocks = (partial + chunk).split("\n\n");
        partial = blocks.pop() ?? "";
        for (const block of blocks) {
          if (!block.includes("event: generation.processing")) continue;
          events += 1;
          firstId ??= /^id: (.*)$/m.exec(block)?.[1] ?? null;
        }
      });
      response.on("error", () => undefined);
      resolve({
        received: () => events,
        bytes: () => bytes,
        firstId: () => firstId,
        ended,
        resume: () => response.resume(),
        close: () => request.destroy(),
      });
    });
    request.on("error", reject);
  });
}

/** Samples the server's RSS every 100 ms until `done` settles; answers the peak. */
async function peakRssWhile(pid: number, done: Promise<unknown>): Promise<number> {
  let peak = processTreeRssMb(pid)?.rss_mb ?? 0;
  let settled = false;
  void done.finally(() => (settled = true));
  while (!settled) {
    peak = Math.max(peak, processTreeRssMb(pid)?.rss_mb ?? 0);
    await sleep(100);
  }
  return Math.max(peak, processTreeRssMb(pid)?.rss_mb ?? 0);
}

async function untilTrue(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

const rssOf = (pid: number) => processTreeRssMb(pid)?.rss_mb ?? NaN;

async function burstRound(input: LiveMemoryBenchInput, paused: boolean) {
  const url = `${input.baseUrl}/v1/content/events`;
  const streams: BenchStream[] = [];
  for (let index = 0; index < STREAMS; index += 1) streams.push(await openStream(url, input.key, paused));
  const watcher = await openStream(url, input.key, false);
  await sleep(2_000);
  const before = rssOf(input.appPid);
  // The burst is out once the reading watcher has every event of it (and, unpaused, every stream).
  const settled = (async () => {
    await input.burst(input.generationId, BURST);
    await untilTrue(() => watcher.received() >= BURST && (paused || streams.every((stream) => stream.received() >= BURST)), 300_000);
    await sleep(3_000);
  })();
  const peak = await peakRssWhile(input.appPid, settled);
  const after = rssOf(input.appPid);
  let endedByServer = 0;
  if (paused) {
    for (const stream of streams) stream.resume();
    // A stream the server ended closes once its client has read what was sent; one still open keeps going.
    await Promise.race([Promise.all(streams.map((stream) => stream.ended)), sleep(20_000)]);
    endedByServer = streams.filter((stream) => stream.received() < BURST).length;
  }
  for (const stream of [...streams, watcher]) stream.close();
  const firstOfBurst = watcher.firstId();
  const bytesPerStream = Math.round(streams.reduce((sum, stream) => sum + stream.bytes(), 0) / streams.length / 1024);
  await sleep(3_000);
  return {
    clients: paused ? "read nothing" : "read everything",
    streams: STREAMS,
    burst_events: BURST,
    rss_before_mb: before,
    rss_peak_mb: peak,
    rss_after_mb: after,
    rss_rise_at_peak_mb: Math.round((peak - before) * 10) / 10,
    kib_received_per_stream: bytesPerStream,
    ...(paused ? { ended_by_server: endedByServer } : {}),
    firstOfBurst,
  };
}

/** 100 clients resuming from before the bursts (every one of their events still to send), reading nothing. */
async function resumeRound(input: LiveMemoryBenchInput, lastEventId: string, backlog: number) {
  const url = `${input.baseUrl}/v1/content/events`;
  const before = rssOf(input.appPid);
  const streams: BenchStream[] = [];
  const opened = (async () => {
    for (let index = 0; index < STREAMS; index += 1) streams.push(await openStream(url, input.key, true, lastEventId));
    await sleep(5_000);
  })();
  const peak = await peakRssWhile(input.appPid, opened);
  const after = rssOf(input.appPid);
  for (const stream of streams) stream.close();
  await sleep(3_000);
  return {
    clients: "resume from before the bursts, read nothing",
    streams: STREAMS,
    backlog_events: backlog,
    rss_before_mb: before,
    rss_peak_mb: peak,
    rss_after_mb: after,
    rss_rise_at_peak_mb: Math.round((peak - before) * 10) / 10,
  };
}

export async function measureLiveMemory(input: LiveMemoryBenchInput) {
  const idle = rssOf(input.appPid);
  const { firstOfBurst, ...reading } = await burstRound(input, false);
  const { firstOfBurst: _, ...notReading } = await burstRound(input, true);
  // Resumed after the first event of the first burst: both bursts but that event still to send.
  const resuming = firstOfBurst ? await resumeRound(input, firstOfBurst, 2 * BURST - 1) : null;
  return { rss_idle_mb: idle, baseline_reading: reading, not_reading: notReading, resuming_not_reading: resuming };
}
