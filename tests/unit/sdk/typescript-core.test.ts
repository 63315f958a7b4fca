import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  Darkroom,
  DarkroomError,
  InsufficientCreditsError,
  NotFoundError,
  PermissionError,
  ProviderError,
  RateLimitError,
  ServerError,
  SpendLimitError,
  ValidationError,
  ConnectionError,
  WaitTimeoutError,
  WebhookVerificationError,
  errorClassFor,
  parseEventStream,
  verifyWebhook,
  type GenerationRecord,
} from "@/sdk/typescript/src/index";
import { until } from "@/tests/support/until";

// The hand-written core of @darkroom/client without a Darkroom server: the error families,
// retries (Retry-After, maxRetries, one Idempotency-Key across attempts), Cancel-After, listAll (cursor paging), the SSE
// parser, and the streams against a small local server speaking the wire format of issue #31
// (`id:`/`event:`/`data:` lines, comment heartbeats, snapshot first, a terminal event that ends a
// per-generation stream, resumption with Last-Event-ID).

type Call = { url: string; init: RequestInit; headers: Record<string, string> };

function envelopeError(
  code: string,
  type: string,
  status: number,
  retryable: boolean,
  details: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return new Response(
    JSON.stringify({
      status: "error",
      request_id: "00000000-0000-4000-8000-000000000001",
      error: { code, type, message: `${code} happened`, retryable, details },
    }),
    {
      status,
      headers: { "content-type": "application/json", "x-request-id": "00000000-0000-4000-8000-000000000001", ...headers },
    },
  );
}

const success = (data: unknown, status = 200) =>
  new Response(
    JSON.stringify({
      status: "success",
      request_id: "00000000-0000-4000-8000-000000000002",
      message: "ok",
      timestamp: new Date().toISOString(),
      data,
    }),
    {
      status,
      headers: { "content-type": "application/json" },
    },
  );

function scripted(answers: Array<() => Response | Promise<Response>>) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    calls.push({ url, init, headers: init.headers as Record<string, string> });
    const next = answers[Math.min(calls.length - 1, answers.length - 1)];
    if (!next) throw new Error("no answer scripted");
    return next();
  };
  return { calls, fetch };
}

const created = {
  model_identifier: "darkroom/lumen-image",
  generation_provider_order: ["local"],
  generation_prediction_id: null,
  generation_id: "5b0c4a1e-0000-4000-8000-000000000000",
  generation_initialized: true,
};

describe("error families", () => {
  it("maps every code of the error table, ERR1014 and unknown ERR4xxx to their family, and bare statuses by status", () => {
    const expected: Record<string, unknown> = {
      ERR1001: ValidationError,
      ERR1002: AuthenticationError,
      ERR1003: PermissionError,
      ERR1004: InsufficientCreditsError,
      ERR1005: RateLimitError,
      ERR1006: NotFoundError,
      ERR1007: PermissionError,
      ERR1008: ValidationError,
      ERR1009: RateLimitError,
      ERR1010: ConflictError,
      ERR1011: ValidationError,
      ERR1012: NotFoundError,
      ERR1014: SpendLimitError,
      ERR1015: ValidationError,
      ERR2014: ValidationError,
      ERR2015: ConflictError,
      ERR2016: ConflictError,
      ERR3001: ServerError,
      ERR4001: ProviderError,
      ERR4004: ProviderError,
      ERR4006: ProviderError,
      ERR5000: ServerError,
    };
    for (const [code, family] of Object.entries(expected)) expect([code, errorClassFor(code, 400)]).toEqual([code, family]);
    expect(errorClassFor("http_401", 401)).toBe(AuthenticationError);
    expect(errorClassFor("http_502", 502)).toBe(ServerError);
    expect(errorClassFor("http_429", 429)).toBe(RateLimitError);
  });

  it("ERR1014 from a create is a SpendLimitError with its details, not retried", async () => {
    const details = { scope: "apikey", limit: 5, used: 4.5, requested: 1, resets_at: "2026-11-28T00:00:00.000Z" };
    const { calls, fetch } = scripted([() => envelopeError("ERR1014", "spend_limit_exceeded", 402, false, details)]);
    const error = await new Darkroom({ apiKey: "dkr_x", fetch }).generate
      .image("darkroom/lumen-image", { generation_prompt: "x" })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).toBeInstanceOf(DarkroomError);
    expect(error).toMatchObject({
      code: "ERR1014",
      type: "spend_limit_exceeded",
      status: 402,
      retryable: false,
      requestId: "00000000-0000-4000-8000-000000000001",
      details,
    });
    expect(calls).toHaveLength(1);
  });

  it("a provider error and an answer outside the envelope keep their status and request id", async () => {
    const provider = scripted([() => envelopeError("ERR4004", "all_providers_failed", 502, false, { provider_errors: [] })]);
    const error = await new Darkroom({ apiKey: "dkr_x", fetch: provider.fetch }).status().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ProviderError);
    const proxy = scripted([
      () => new Response("<html>bad gateway</html>", { status: 502, headers: { "x-request-id": "from-the-proxy" } }),
    ]);
    const bare = await new Darkroom({ apiKey: "dkr_x", fetch: proxy.fetch, maxRetries: 0 }).status().catch((reason: unknown) => reason);
    expect(bare).toBeInstanceOf(ServerError);
    expect(bare).toMatchObject({ code: "http_502", status: 502, retryable: true, requestId: "from-the-proxy" });
  });
});

describe("retries", () => {
  it("waits what Retry-After says, then succeeds; every attempt carries the same Idempotency-Key", async () => {
    const { calls, fetch } = scripted([
      () => envelopeError("ERR1005", "rate_limit_exceeded", 429, true, {}, { "retry-after": "1" }),
      () => success(created, 202),
    ]);
    const started = Date.now();
    const result = await new Darkroom({ apiKey: "dkr_x", fetch }).generate.image("darkroom/lumen-image", { generation_prompt: "x" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(result.lastResponse.attempts).toBe(2);
    expect(calls).toHaveLength(2);
    const keys = calls.map((call) => call.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("makes at most maxRetries retries of a retryable error, and none of a non-retryable one", async () => {
    const failing = scripted([() => envelopeError("ERR5000", "internal_error", 500, true)]);
    const error = await new Darkroom({ apiKey: "dkr_x", fetch: failing.fetch, maxRetries: 2 }).account().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ServerError);
    expect(failing.calls).toHaveLength(3);

    const invalid = scripted([() => envelopeError("ERR1001", "invalid_request", 400, false)]);
    await expect(new Darkroom({ apiKey: "dkr_x", fetch: invalid.fetch, maxRetries: 5 }).usage({ days: 0 })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(invalid.calls).toHaveLength(1);
  });

  it("retries a connection failure, and reports it as a ConnectionError when retries run out", async () => {
    const refused = () => Promise.reject(new TypeError("fetch failed"));
    const recovering = scripted([refused, () => success({ account_id: "a" })]);
    expect((await new Darkroom({ apiKey: "dkr_x", fetch: recovering.fetch, maxRetries: 1 }).account()).lastResponse.attempts).toBe(2);
    const down = scripted([refused]);
    const error = await new Darkroom({ apiKey: "dkr_x", fetch: down.fetch, maxRetries: 1 }).account().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: "connection_error", status: 0, retryable: true });
    expect(down.calls).toHaveLength(2);
  });
});

describe("requests", () => {
  it("sends Cancel-After, the caller's Idempotency-Key, the bearer key, the model's slash unescaped, and query values", async () => {
    const { calls, fetch } = scripted([() => success(created, 202), () => success(created, 202), () => success({})]);
    const darkroom = new Darkroom({ apiKey: "dkr_key", baseUrl: "https://{region}.api.example.test/v1/", region: "eu", fetch });
    await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "x" }, { cancelAfter: "1h30m", idempotencyKey: "mine-1" });
    await darkroom.generate.video("darkroom/lumen-video", { generation_prompt: "x", generation_duration: 2 }, { cancelAfter: 90 });
    await darkroom.estimate("darkroom/lumen-video", { count: 2, audio: false });
    expect(calls[0]?.url).toBe("https://eu.api.example.test/v1/generate/image/darkroom/lumen-image");
    expect(calls[0]?.headers).toMatchObject({
      authorization: "Bearer dkr_key",
      "cancel-after": "1h30m",
      "idempotency-key": "mine-1",
      "content-type": "application/json",
    });
    expect(calls[1]?.headers["cancel-after"]).toBe("90s");
    expect(calls[2]?.url).toBe("https://eu.api.example.test/v1/estimate/darkroom/lumen-video?count=2&audio=false");
  });
});

/**
 * A list served the way /v1/content/list pages by cursor: newest first, `starting_after` = an id of
 * the list, and a new generation created (at the front) after every answer.
 */
function cursorPagedList(count: number) {
  const idOf = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const list = Array.from({ length: count }, (_, index) => idOf(count - index));
  let created = count;
  const fetch = async (url: string) => {
    const query = new URL(url).searchParams;
    const limit = Number(query.get("limit"));
    const after = query.get("starting_after");
    const from = after === null ? 0 : list.indexOf(after) + 1;
    const page = list.slice(from, from + limit);
    const hasMore = from + limit < list.length;
    const answer = new Response(
      JSON.stringify({
        status: "success",
        request_id: "00000000-0000-4000-8000-000000000003",
        message: "OK",
        timestamp: new Date().toISOString(),
        total: list.length,
        limit,
        offset: 0,
        has_more: hasMore,
        next_cursor: hasMore ? (page.at(-1) ?? null) : null,
        data: { generations: page.map((id) => ({ generation_id: id })) },
      }),
      { status: 200, headers: { "content-type": "application/json" } },
    );
    list.unshift(idOf(++created));
    return answer;
  };
  return { initial: [...list], fetch };
}

/** A client of `cursorPagedList(count)` that keeps the URLs it asked for. */
function cursorPagedClient(count: number) {
  const { initial, fetch } = cursorPagedList(count);
  const urls: string[] = [];
  const darkroom = new Darkroom({ apiKey: "dkr_x", baseUrl: "https://api.example.test/v1", fetch: (url) => (urls.push(url), fetch(url)) });
  return { initial, urls, darkroom };
}

describe("generations.listAll", () => {
  it("reads every generation once, newest first, by starting_after, while new ones are created between pages", async () => {
    const { initial, urls, darkroom } = cursorPagedClient(7);
    const seen: string[] = [];
    for await (const record of darkroom.generations.listAll({ limit: 3 })) seen.push(record.generation_id);
    expect(seen).toEqual(initial);
    expect(urls).toEqual([
      "https://api.example.test/v1/content/list?limit=3",
      `https://api.example.test/v1/content/list?limit=3&starting_after=${initial[2]}`,
      `https://api.example.test/v1/content/list?limit=3&starting_after=${initial[5]}`,
    ]);
  });

  it("starts after the caller's id, reads 100 a page by default, stops early when the loop does, and throws the server's ERR1001", async () => {
    const { initial, urls, darkroom } = cursorPagedClient(5);
    const after: string[] = [];
    for await (const record of darkroom.generations.listAll({ startingAfter: initial[1] })) after.push(record.generation_id);
    expect(after).toEqual(initial.slice(2));
    expect(urls).toEqual([`https://api.example.test/v1/content/list?limit=100&starting_after=${initial[1]}`]);

    const first = [];
    for await (const record of darkroom.generations.listAll({ limit: 1 })) {
      first.push(record.generation_id);
      break;
    }
    expect(first).toHaveLength(1);
    expect(urls).toHaveLength(2);

    const details = { fields: [{ field: "starting_after", message: "is not a generation of this account" }] };
    const refused = scripted([() => envelopeError("ERR1001", "invalid_request", 400, false, details)]);
    const failing = new Darkroom({ apiKey: "dkr_x", fetch: refused.fetch }).generations.listAll({ startingAfter: initial[0] });
    const error = await failing.next().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: "ERR1001", details });
  });
});

describe("the SSE parser", () => {
  it("reads events split anywhere, CRLF and CR line ends, comments, multi-line data and a kept id", async () => {
    const text =
      ': heartbeat\r\nid: 1\r\nevent: generation.snapshot\r\ndata: {"a":\r\ndata: 1}\r\n\r\n:hb\n\nevent: ping\ndata: x\n\nid: 2\revent: generation.completed\rdata: {"b":2}\r\r';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < bytes.length; index += 3) controller.enqueue(bytes.slice(index, index + 3));
        controller.close();
      },
    });
    const events = [];
    for await (const event of parseEventStream(body)) events.push(event);
    expect(events.map(({ id, event, data }) => ({ id, event, data }))).toEqual([
      { id: "1", event: "generation.snapshot", data: '{"a":\n1}' },
      { id: "1", event: "ping", data: "x" },
      { id: "2", event: "generation.completed", data: '{"b":2}' },
    ]);
  });
});

// ---------------------------------------------------------------- a local SSE server

const record = (status: string): GenerationRecord => ({ generation_id: "g-1", generation_status: status }) as GenerationRecord;
type Frame = { id: string; event: string; data: unknown };
const frame = ({ id, event, data }: Frame) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const generationFrames: Frame[] = [
  { id: "1", event: "generation.snapshot", data: record("pending") },
  { id: "2", event: "generation.processing", data: record("processing") },
  { id: "3", event: "generation.attempt", data: { generation_id: "g-1", provider: "local", attempt: 1, outcome: "started" } },
  { id: "4", event: "generation.completed", data: record("succeeded") },
];

describe("streams against a local server speaking the #31 wire format", () => {
  it("generations.stream: snapshot first, resumes after a dropped connection with Last-Event-ID, ends at the terminal event", async () => {
    const seen: Array<string | undefined> = [];
    const base = await serve((req, res) => {
      if (req.headers.authorization !== "Bearer dkr_sse")
        return res.writeHead(401, { "content-type": "application/json" }).end(
          JSON.stringify({
            status: "error",
            request_id: "r",
            error: { code: "ERR1002", type: "authentication_failed", message: "no", retryable: false, details: {} },
          }),
        );
      seen.push(req.headers["last-event-id"] as string | undefined);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const after = Number(req.headers["last-event-id"] ?? 0);
      const frames = generationFrames.filter((each) => Number(each.id) > after);
      if (seen.length === 1) {
        // The first connection: two events, a heartbeat, then the connection drops.
        res.write(`: heartbeat\n\n${frames.slice(0, 2).map(frame).join("")}: heartbeat\n\n`);
        setTimeout(() => req.socket.destroy(), 50);
        return;
      }
      res.end(frames.map(frame).join(""));
    });
    const events = [];
    for await (const event of new Darkroom({ apiKey: "dkr_sse", baseUrl: base }).generations.stream("g-1")) events.push(event);
    expect(events.map((event) => [event.id, event.event])).toEqual(generationFrames.map((each) => [each.id, each.event]));
    expect(events[0]?.data).toEqual(record("pending"));
    expect(seen).toEqual([undefined, "2"]);

    const refused = await (async () => {
      for await (const _event of new Darkroom({ apiKey: "dkr_other", baseUrl: base }).generations.stream("g-1")) return null;
      return null;
    })().catch((reason: unknown) => reason);
    expect(refused).toBeInstanceOf(AuthenticationError);
  });

  it("generations.stream: a resumed stream that sends only the snapshot of a finished generation ends there", async () => {
    let requests = 0;
    const base = await serve((req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "text/event-stream" });
      // A resume snapshot without an id; then, from an older server, one repeating the cursor's.
      if (req.url?.startsWith("/v1/content/g-1/")) res.end(`event: generation.snapshot\ndata: ${JSON.stringify(record("succeeded"))}\n\n`);
      else res.end(frame({ id: "9", event: "generation.snapshot", data: record("succeeded") }));
    });
    const read = async (id: string) => {
      const events = [];
      for await (const event of new Darkroom({ apiKey: "dkr_sse", baseUrl: base }).generations.stream(id, { lastEventId: "9" }))
        events.push(event);
      return events;
    };
    expect(await read("g-1")).toEqual([{ id: null, event: "generation.snapshot", data: record("succeeded") }]);
    // The repeated id is not handed out again, and the stream still ends at that snapshot.
    expect(await read("g-2")).toEqual([]);
    expect(requests).toBe(2);
  });

  it("events.stream: resumes from the caller's lastEventId, reconnects after a drop, and closes the connection when the loop stops", async () => {
    const seen: Array<string | undefined> = [];
    let closed = 0;
    const base = await serve((req, res) => {
      seen.push(req.headers["last-event-id"] as string | undefined);
      expect(req.url).toBe("/v1/content/events?model_identifier=darkroom%2Flumen-image");
      req.on("close", () => closed++);
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (seen.length === 1) {
        res.write(frame({ id: "e-11", event: "generation.created", data: record("pending") }));
        setTimeout(() => req.socket.destroy(), 50);
      } else {
        res.write(frame({ id: "e-12", event: "generation.completed", data: record("succeeded") }));
        res.write(frame({ id: "e-13", event: "generation.created", data: record("pending") }));
      }
    });
    const ids = [];
    for await (const event of new Darkroom({ apiKey: "dkr_sse", baseUrl: base }).events.stream({
      lastEventId: "e-10",
      modelIdentifier: "darkroom/lumen-image",
    })) {
      ids.push(event.id);
      // An account stream does not end at a terminal event: the caller stops reading.
      if (ids.length === 3) break;
    }
    expect(ids).toEqual(["e-11", "e-12", "e-13"]);
    expect(seen).toEqual(["e-10", "e-11"]);
    await until(() => closed === 2, "both stream connections closed");
  });

  it("generations.wait returns the terminal record from the stream, and falls back to polling where there is no stream", async () => {
    const streamed = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end([generationFrames[0], generationFrames[3]].map((each) => frame(each as Frame)).join(""));
    });
    expect((await new Darkroom({ apiKey: "dkr_sse", baseUrl: streamed }).generations.wait("g-1")).generation_status).toBe("succeeded");
    await new Promise<void>((resolve) => server?.close(() => resolve()));

    let polls = 0;
    const polled = await serve((req, res) => {
      res.writeHead(req.url?.endsWith("/events") ? 404 : 200, { "content-type": "application/json" });
      if (req.url?.endsWith("/events"))
        return res.end(
          JSON.stringify({
            status: "error",
            request_id: "r",
            error: { code: "ERR1006", type: "not_found", message: "no route", retryable: false, details: {} },
          }),
        );
      polls++;
      res.end(
        JSON.stringify({
          status: "success",
          request_id: "r",
          message: "ok",
          timestamp: "",
          data: record(polls < 3 ? "processing" : "failed"),
        }),
      );
    });
    const finished = await new Darkroom({ apiKey: "dkr_sse", baseUrl: polled }).generations.wait("g-1", { pollIntervalMs: 10 });
    expect(finished.generation_status).toBe("failed");
    expect(polls).toBe(3);
  });

  it("generations.wait gives up at its timeout with the last record, though heartbeats keep coming", async () => {
    const base = await serve((req, res) => {
      if (!req.url?.endsWith("/events"))
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ status: "success", request_id: "r", data: record("processing") }));
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(frame({ id: "1", event: "generation.snapshot", data: record("processing") }));
      const beat = setInterval(() => res.write(": heartbeat\n\n"), 100);
      req.on("close", () => clearInterval(beat));
    });
    const error = await new Darkroom({ apiKey: "dkr_sse", baseUrl: base }).generations
      .wait("g-1", { timeoutMs: 500 })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).lastRecord).toEqual(record("processing"));
  });
});

// Opaque ids, in stream order (not sortable): the client compares them for equality only.
const cutFrames: Frame[] = [
  { id: "q7:x", event: "generation.snapshot", data: record("pending") },
  { id: "a3:x", event: "generation.processing", data: record("processing") },
  { id: "m9:x", event: "generation.attempt", data: { generation_id: "g-1", provider: "local", attempt: 1, outcome: "started" } },
  { id: "b1:x", event: "generation.attempt", data: { generation_id: "g-1", provider: "local", attempt: 1, outcome: "succeeded" } },
  { id: "z0:x", event: "generation.completed", data: record("succeeded") },
];
const cutStream = Buffer.from(`: heartbeat\n\n${cutFrames.map(frame).join("")}`);

describe("a stream cut at every byte offset", () => {
  // The first stream of `/v1/content/<style>-<N>/events` ends after N bytes (cleanly for even N,
  // abruptly for odd); the reconnect resumes with Last-Event-ID. A resume snapshot comes without an
  // id (`new`) or, as an older server sent it, with the cursor's id (`old`).
  it("resumes with every id handed out once, in order, none lost, wherever the cut falls", async () => {
    const firstSeen = new Set<string>();
    const base = await serve((req, res) => {
      const target = req.url?.split("/")[3] ?? "";
      const [style, offset] = target.split("-");
      const cursor = req.headers["last-event-id"] as string | undefined;
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (!firstSeen.has(target)) {
        firstSeen.add(target);
        if (cursor !== undefined) throw new Error(`first stream of ${target} sent ${cursor}`);
        const bytes = cutStream.subarray(0, Number(offset));
        if (Number(offset) % 2 === 0) return res.end(bytes);
        return res.write(bytes, () => req.socket.destroy());
      }
      if (cursor === undefined) return res.end(cutStream);
      const after = cutFrames.findIndex((each) => each.id === cursor) + 1;
      const snapshot =
        style === "new"
          ? `event: generation.snapshot\ndata: ${JSON.stringify(record("processing"))}\n\n`
          : frame({ id: cursor, event: "generation.snapshot", data: record("processing") });
      res.end(snapshot + cutFrames.slice(after).map(frame).join(""));
    });
    const targets = ["new", "old"].flatMap((style) => Array.from({ length: cutStream.length }, (_, offset) => `${style}-${offset}`));
    const runs = await Promise.all(
      targets.map(async (target) => {
        const events = [];
        for await (const event of new Darkroom({ apiKey: "dkr_sse", baseUrl: base, maxRetries: 3 }).generations.stream(target))
          events.push(event);
        return { target, events };
      }),
    );
    for (const { target, events } of runs) {
      expect([target, events.filter((event) => event.id !== null).map((event) => event.id)]).toEqual([
        target,
        cutFrames.map((each) => each.id),
      ]);
      expect([target, new Set(events.filter((event) => event.id === null).map((event) => event.event))]).toEqual([
        target,
        new Set(events.some((event) => event.id === null) ? ["generation.snapshot"] : []),
      ]);
      expect([target, events.at(-1)?.event]).toEqual([target, "generation.completed"]);
      if (target.startsWith("old-")) expect([target, events.every((event) => event.id !== null)]).toEqual([target, true]);
    }
  });
});

describe("webhook verification", () => {
  const secret = "whsec_test";
  const body = JSON.stringify({
    webhook_event: "generation.completed",
    webhook_delivery_id: "d-1",
    webhook_data: { generation_status: "succeeded" },
  });
  const sign = (timestamp: number | string) =>
    `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
  const reasonOf = (promise: Promise<unknown>) =>
    promise.then(
      () => "accepted",
      (error: unknown) =>
        error instanceof WebhookVerificationError ? error.reason : error instanceof TypeError ? "TypeError" : String(error),
    );

  it("throws for a tolerance (or now) that is not a finite number of at least 0, which let a 30-day-old delivery through", async () => {
    const old = Math.floor(Date.now() / 1000) - 30 * 86_400;
    for (const toleranceSeconds of [Number.NaN, Number(undefined), Infinity, -1, "300" as unknown as number, null as unknown as number]) {
      expect(await reasonOf(verifyWebhook(body, sign(old), secret, { toleranceSeconds })), String(toleranceSeconds)).toBe("TypeError");
      expect(
        await reasonOf(new Darkroom({ apiKey: "dkr_x" }).webhooks.verify(body, sign(old), secret, { toleranceSeconds })),
        String(toleranceSeconds),
      ).toBe("TypeError");
    }
    expect(await reasonOf(verifyWebhook(body, sign(old), secret, { now: Number.NaN }))).toBe("TypeError");
    expect(await reasonOf(verifyWebhook(body, sign(old), secret))).toBe("timestamp_out_of_tolerance");
    expect(await reasonOf(verifyWebhook(body, sign(old), secret, { toleranceSeconds: 31 * 86_400 }))).toBe("accepted");
    expect(await reasonOf(verifyWebhook(body, sign(old), secret, { toleranceSeconds: 0, now: old * 1000 }))).toBe("accepted");
  });

  it("reads t= as ASCII digits only", async () => {
    const now = Math.floor(Date.now() / 1000);
    const signature = sign(now).split(",")[1];
    const arabicIndic = [...String(now)].map((digit) => String.fromCharCode(0x0660 + Number(digit))).join("");
    const fullwidth = [...String(now)].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join("");
    for (const digits of [arabicIndic, fullwidth, `+${now}`, `${now}.0`, ` ${now}e0`])
      expect(await reasonOf(verifyWebhook(body, `t=${digits},${signature}`, secret)), digits).toBe("malformed_header");
    expect(await reasonOf(verifyWebhook(body, sign(now), secret))).toBe("accepted");
  });
});

describe("redirects", () => {
  const servers: http.Server[] = [];
  afterEach(async () => {
    for (const each of servers.splice(0)) {
      each.closeAllConnections();
      await new Promise<void>((resolve) => each.close(() => resolve()));
    }
  });
  async function listen(handler: http.RequestListener): Promise<{ origin: string; port: number }> {
    const listening = http.createServer(handler);
    servers.push(listening);
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    const { port } = listening.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, port };
  }

  it("refuses a redirect to another origin (port, host or scheme), with the global fetch: the key never leaves", async () => {
    const reached: Array<string | undefined> = [];
    const other = await listen((req, res) => {
      reached.push(req.headers.authorization);
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ status: "success", request_id: "r", data: { account_id: "a" } }));
    });
    for (const target of [other.origin, `http://localhost:${other.port}`, `https://127.0.0.1:${other.port}`]) {
      let requests = 0;
      const api = await listen((req, res) => {
        requests++;
        res.writeHead(307, { location: `${target}${req.url}` }).end();
      });
      const darkroom = new Darkroom({ apiKey: "dkr_secret", baseUrl: `${api.origin}/v1`, maxRetries: 2 });
      const refused = await darkroom.status().catch((reason: unknown) => reason);
      expect(refused, target).toBeInstanceOf(DarkroomError);
      expect(refused).toMatchObject({
        code: "http_307",
        type: "redirect_refused",
        retryable: false,
        details: { location: `${target}/v1/status` },
      });
      const streamed = await (async () => {
        for await (const _event of darkroom.events.stream()) return null;
        return null;
      })().catch((reason: unknown) => reason);
      expect(streamed).toMatchObject({ code: "http_307", type: "redirect_refused" });
      // Neither retried: one request each, both to the API's own origin.
      expect(requests).toBe(2);
    }
    expect(reached).toEqual([]);
  });

  it("follows a redirect within the origin with the key, a 303 as a GET", async () => {
    const seen: Array<{ method?: string; url?: string; authorization?: string }> = [];
    const api = await listen((req, res) => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
      if (req.url === "/v1/status") return res.writeHead(307, { location: "/v1/status/here" }).end();
      if (req.url?.startsWith("/v1/generate/")) return res.writeHead(303, { location: "/v1/created" }).end();
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ status: "success", request_id: "r", data: req.url === "/v1/created" ? created : { account_id: "a" } }));
    });
    const darkroom = new Darkroom({ apiKey: "dkr_secret", baseUrl: `${api.origin}/v1` });
    expect((await darkroom.status()).account_id).toBe("a");
    expect((await darkroom.generate.image("darkroom/lumen-image", { generation_prompt: "x" })).generation_id).toBe(created.generation_id);
    expect(seen).toEqual([
      { method: "GET", url: "/v1/status", authorization: "Bearer dkr_secret" },
      { method: "GET", url: "/v1/status/here", authorization: "Bearer dkr_secret" },
      { method: "POST", url: "/v1/generate/image/darkroom/lumen-image", authorization: "Bearer dkr_secret" },
      { method: "GET", url: "/v1/created", authorization: "Bearer dkr_secret" },
    ]);
  });
});
