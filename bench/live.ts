import http from "node:http";
import { processTreeRssMb } from "./process-rss";
import { processTreeCpuMs } from "./process-cpu";

// BENCH_ONLY=live (issue #31): the live streams' figures on one instance.
// - commit → event at the client: a generation row inserted by this process (its commit is when
//   the insert returns), until its generation.created arrives on an open account stream;
// - 1,000 idle streams: the server's RSS before and after opening them, and its CPU over an idle
//   window with them open (heartbeats only);
// - create → succeeded read from the stream, beside the polled and `Prefer: wait` figures, in
//   alternating samples.

type Spread = { samples: number; p50: number; p90: number; p99: number };
type Sample = { observedMs: number };

export type LiveBenchInput = {
  baseUrl: string;
  appPid: number;
  keys: string[];
  accountIds: string[];
  /** Inserts a finished generation row for the account (this process, one transaction). */
  insertGeneration(accountId: string): Promise<void>;
  createAndWait(key: string, prompt: string): Promise<Sample>;
  createWaiting(key: string, prompt: string): Promise<Sample>;
  spread(values: number[]): Spread;
  samples: number;
};

type OpenStream = { request: http.ClientRequest; onEvent(listener: (name: string, data: string, at: number) => void): void; close(): void };

/** A raw SSE connection on its own socket: events are reported with the time they arrived. */
function openStream(url: string, key: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const listeners: Array<(name: string, data: string, at: number) => void> = [];
    const request = http.get(
      url,
      { headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" }, agent: false },
      (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        let buffer = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const name = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (name && data) for (const listener of listeners) listener(name, data, at);
          }
        });
        response.on("error", () => undefined);
        resolve({ request, onEvent: (listener) => listeners.push(listener), close: () => request.destroy() });
      },
    );
    request.on("error", reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureLive(input: LiveBenchInput) {
  const { baseUrl, keys, accountIds, spread } = input;

  // Commit → event at the client.
  const watcher = await openStream(`${baseUrl}/v1/content/events`, keys[0]!);
  let arrived: ((at: number) => void) | null = null;
  watcher.onEvent((name, _data, at) => {
    if (name === "generation.created") arrived?.(at);
  });
  // The notice can reach the client before the insert's own answer does: from the commit's answer
  // (clamped at 0) is the lower bound, from sending the insert (its transaction included) the upper.
  const commitToClient: number[] = [];
  const insertToClient: number[] = [];
  for (let index = 0; index < input.samples * 2; index += 1) {
    const seen = new Promise<number>((resolve) => (arrived = resolve));
    const sentAt = performance.now();
    await input.insertGeneration(accountIds[0]!);
    const committedAt = performance.now();
    const at = await seen;
    commitToClient.push(Math.max(0, at - committedAt));
    insertToClient.push(at - sentAt);
    await sleep(20);
  }
  watcher.close();

  // Create → succeeded read from the stream, alternating with polled and Prefer: wait samples.
  const streamed: number[] = [];
  const polled: number[] = [];
  const waited: number[] = [];
  const stream = await openStream(`${baseUrl}/v1/content/events`, keys[1]!);
  const finished = new Map<string, (at: number) => void>();
  const early = new Map<string, number>();
  stream.onEvent((name, data, at) => {
    if (name !== "generation.completed") return;
    const id = (JSON.parse(data) as { generation_id: string }).generation_id;
    const waiting = finished.get(id);
    if (waiting) waiting(at);
    else early.set(id, at);
  });
  for (let index = 0; index < input.samples; index += 1) {
    const started = performance.now();
    const reply = await fetch(`${baseUrl}/v1/generate/image/darkroom/lumen-image`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys[1]}`, "content-type": "application/json" },
      body: JSON.stringify({ generation_prompt: `streamed ${index}`, generation_provider_order: "local" }),
    });
    const { data } = (await reply.json()) as { data: { generation_id: string } };
    // The completion can arrive before the create's answer is read: keep what came early.
    const at = early.get(data.generation_id) ?? (await new Promise<number>((resolve) => finished.set(data.generation_id, resolve)));
    streamed.push(at - started);
    polled.push((await input.createAndWait(keys[2]!, `polled ${index}`)).observedMs);
    waited.push((await input.createWaiting(keys[3]!, `waited ${index}`)).observedMs);
  }
  stream.close();

  // 1,000 idle streams, against the same idle window without them.
  const idleWindowMs = 20_000;
  await sleep(2_000);
  const baselineBefore = processTreeCpuMs(input.appPid);
  await sleep(idleWindowMs);
  const baselineAfter = processTreeCpuMs(input.appPid);
  const baselineCpuMs = baselineBefore && baselineAfter ? baselineAfter.server_ms - baselineBefore.server_ms : NaN;
  const rssBefore = processTreeRssMb(input.appPid)?.rss_mb ?? null;
  const idle: OpenStream[] = [];
  for (let index = 0; index < 1_000; index += 1) idle.push(await openStream(`${baseUrl}/v1/content/events`, keys[4 + (index % 10)]!));
  await sleep(5_000);
  const rssAfter = processTreeRssMb(input.appPid)?.rss_mb ?? null;
  const cpuBefore = processTreeCpuMs(input.appPid);
  await sleep(idleWindowMs);
  const cpuAfter = processTreeCpuMs(input.appPid);
  for (const open of idle) open.close();
  const idleCpuMs = cpuBefore && cpuAfter ? cpuAfter.server_ms - cpuBefore.server_ms : NaN;

  return {
    commit_to_client_ms: spread(commitToClient),
    insert_sent_to_client_ms: spread(insertToClient),
    create_to_succeeded_ms: { from_stream: spread(streamed), polled: spread(polled), prefer_wait: spread(waited) },
    idle_streams: {
      streams: idle.length,
      rss_before_mb: rssBefore,
      rss_after_mb: rssAfter,
      rss_delta_mb: rssBefore !== null && rssAfter !== null ? Math.round((rssAfter - rssBefore) * 10) / 10 : null,
      idle_window_s: idleWindowMs / 1000,
      server_cpu_ms_in_window: Math.round(idleCpuMs),
      server_cpu_ms_in_window_without_streams: Math.round(baselineCpuMs),
      server_cpu_share_percent: Math.round((idleCpuMs / idleWindowMs) * 10_000) / 100,
      server_cpu_share_percent_without_streams: Math.round((baselineCpuMs / idleWindowMs) * 10_000) / 100,
    },
  };
}
