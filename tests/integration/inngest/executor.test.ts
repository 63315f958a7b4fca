import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Inngest, NonRetriableError, RetryAfterError } from "inngest";
import { serve } from "inngest/node";
import { serve as serveNext } from "inngest/next";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { embeddedClientOptions } from "@/server/base/events/embedded-client";
import { persistEvents } from "@/server/base/events/event-store";
import { EmbeddedExecutor, type EmbeddedExecutorOptions } from "@/server/jobs/executor/executor";
import { inProcessServeHandler, registerServeHandler } from "@/server/jobs/executor/in-process-handler";
import { RUN_LIMITS } from "@/server/jobs/executor/run-driver";
import { toRecord } from "@/server/jobs/executor/run-store";
import { Prisma } from "@/server/base/generated/prisma/client";
import { inTransaction } from "@/server/base/transaction";
import { queryInTransaction } from "@/server/base/transaction-sql";
import { FakeClock } from "@/tests/support/fake-clock";
import { until } from "@/tests/support/until";

// The embedded executor against real PostgreSQL and the real SDK: test functions served by the
// SDK's own Node handler on a local port, a test client whose sends go to the executor under
// test, no mocks. Each test uses its own event ids; the app id is unique to this run.

const STEP_LIMIT = 50;
const appId = `executor-test-${randomUUID().slice(0, 8)}`;
const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
const silent = { info() {}, warn() {}, error() {}, debug() {} };
let current: EmbeddedExecutor;
const client = new Inngest(embeddedClientOptions({ id: appId, sink: () => current, signingKey: () => signingKey, logger: silent }));
const fnId = (id: string) => `${appId}-${id}`;

const calls = new Map<string, number>();
const bump = (key: string) => {
  const next = (calls.get(key) ?? 0) + 1;
  calls.set(key, next);
  return next;
};
const seen = new Map<string, unknown[]>();
const record = (key: string, value: unknown) => seen.set(key, [...(seen.get(key) ?? []), value]);
type TokenData = { token: string };
const inFlight = { now: 0, max: 0 };
// The slow runs hold until the test opens the gate, so "how many at once" does not depend on timing.
const gate: { open: () => void; opened: Promise<void> } = (() => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
})();

const backlogInFlight = { now: 0, max: 0 };
const backlogGate: { open: () => void; opened: Promise<void> } = (() => {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
})();

const functions = [
  client.createFunction({ id: "multi-step", triggers: [{ event: "test/multi" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    const a = await step.run("a", () => (record(`${token}:times`, Date.now()), bump(`${token}:a`), 1));
    const b = await step.run("b", () => (record(`${token}:times`, Date.now()), bump(`${token}:b`), a + 1));
    const c = await step.run("c", () => (record(`${token}:times`, Date.now()), bump(`${token}:c`), b + 1));
    return { sum: a + b + c };
  }),
  client.createFunction({ id: "parallel", triggers: [{ event: "test/parallel" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    const [x, y] = await Promise.all([step.run("x", () => (bump(`${token}:x`), "x")), step.run("y", () => (bump(`${token}:y`), "y"))]);
    return step.run("z", () => (bump(`${token}:z`), `${x}${y}z`));
  }),
  client.createFunction({ id: "slow", triggers: [{ event: "test/slow" }] }, async ({ step }) =>
    step.run("work", async () => {
      inFlight.now += 1;
      inFlight.max = Math.max(inFlight.max, inFlight.now);
      await gate.opened;
      inFlight.now -= 1;
      return "done";
    }),
  ),
  client.createFunction({ id: "flaky-step", triggers: [{ event: "test/flaky" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    return step.run("flaky", () => {
      if (bump(token) <= 2) throw new Error(`flaky ${calls.get(token)}`);
      return "ok";
    });
  }),
  client.createFunction({ id: "catches", retries: 1, triggers: [{ event: "test/catches" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    try {
      await step.run("hopeless", () => {
        throw new Error(`hopeless ${bump(token)}`);
      });
      return "unreachable";
    } catch (error) {
      return { caught: (error as Error).message };
    }
  }),
  client.createFunction(
    {
      id: "doomed",
      retries: 1,
      triggers: [{ event: "test/doomed" }],
      onFailure: async ({ event, error }) => {
        record(`${(event.data.event.data as TokenData).token}:failure`, {
          message: error.message,
          functionId: event.data.function_id,
          runId: event.data.run_id,
        });
      },
    },
    async ({ event }) => {
      const { token } = event.data as TokenData;
      bump(token);
      throw new Error(`always fails ${token}`);
    },
  ),
  client.createFunction({ id: "refuses", retries: 3, triggers: [{ event: "test/refuses" }] }, async ({ event }) => {
    bump((event.data as TokenData).token);
    throw new NonRetriableError("will never work");
  }),
  client.createFunction({ id: "sleeper", triggers: [{ event: "test/sleep" }] }, async ({ step }) => {
    const before = await step.run("before", () => Date.now());
    await step.sleep("nap", "1s");
    const after = await step.run("after", () => Date.now());
    return { slept: after - before };
  }),
  client.createFunction({ id: "retry-after", retries: 4, triggers: [{ event: "test/retry-after" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    return step.run("deliver", () => {
      record(token, Date.now());
      const times = seen.get(token) as number[];
      const offsets = [500, 1500, 3000, 5000];
      if (times.length <= offsets.length)
        throw new RetryAfterError("not yet", new Date((times[0] as number) + (offsets[times.length - 1] as number)));
      return times.length;
    });
  }),
  client.createFunction({ id: "parent", triggers: [{ event: "test/parent" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    return step.sendEvent("notify-child", { name: "test/child", data: { token } });
  }),
  client.createFunction({ id: "child", triggers: [{ event: "test/child" }] }, async ({ event }) => {
    record((event.data as TokenData).token, "child ran");
    return "child done";
  }),
  client.createFunction({ id: "waiter", triggers: [{ event: "test/wait-start" }] }, async ({ event, step }) => {
    const approval = await step.waitForEvent("approval", {
      event: "test/approved",
      timeout: (event.data as { timeout: string }).timeout,
      match: "data.requestId",
    });
    return { approvedBy: (approval?.data as { by?: string } | undefined)?.by ?? null };
  }),
  client.createFunction({ id: "literal-waiter", triggers: [{ event: "test/literal-start" }] }, async ({ step }) => {
    const signal = await step.waitForEvent("go", {
      event: "test/signal",
      timeout: "10s",
      if: 'async.data.kind == "go" && async.data.requestId == event.data.requestId',
    });
    return { kind: (signal?.data as { kind?: string } | undefined)?.kind ?? null };
  }),
  client.createFunction({ id: "stepper", retries: 0, triggers: [{ event: "test/steps" }] }, async ({ event, step }) => {
    const { token, steps } = event.data as TokenData & { steps: number };
    for (let i = 1; i <= steps; i += 1) await step.run(`s${i}`, () => (bump(`${token}:steps`), i));
    return { ran: steps };
  }),
  client.createFunction({ id: "big-output", triggers: [{ event: "test/big-output" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    try {
      await step.run("huge", () => (bump(`${token}:huge`), "x".repeat(4 * 1024 * 1024 + 1)));
      return "unreachable";
    } catch (error) {
      return { caught: (error as Error).message };
    }
  }),
  client.createFunction({ id: "backlog", concurrency: { limit: 3 }, triggers: [{ event: "test/backlog" }] }, async ({ event, step }) =>
    step.run("hold", async () => {
      const { token } = event.data as TokenData;
      record("fair:order", token);
      backlogInFlight.now += 1;
      backlogInFlight.max = Math.max(backlogInFlight.max, backlogInFlight.now);
      await backlogGate.opened;
      backlogInFlight.now -= 1;
      return token;
    }),
  ),
  client.createFunction({ id: "urgent", triggers: [{ event: "test/urgent" }] }, async ({ event, step }) =>
    step.run("first", () => (record("fair:order", (event.data as TokenData).token), "done")),
  ),
  // Async checkpointing with every step buffered (as run-generation has it).
  client.createFunction(
    { id: "checkpointed", checkpointing: { bufferedSteps: Number.POSITIVE_INFINITY }, triggers: [{ event: "test/checkpointed" }] },
    async ({ event, step }) => {
      const { token } = event.data as TokenData;
      const a = await step.run("a", () => (bump(`${token}:a`), 1));
      const b = await step.run("b", () => (bump(`${token}:b`), a + 1));
      return { sum: a + b };
    },
  ),
  client.createFunction(
    {
      id: "checkpointed-waiter",
      checkpointing: { bufferedSteps: Number.POSITIVE_INFINITY },
      triggers: [{ event: "test/checkpointed-wait" }],
    },
    async ({ event, step }) => {
      const { token } = event.data as TokenData;
      const before = await step.run("before", () => (bump(`${token}:before`), "before"));
      const signal = await step.waitForEvent("go", { event: "test/checkpointed-go", timeout: "20s", match: "data.token" });
      const after = await step.run("after", () => (bump(`${token}:after`), "after"));
      return { before, after, by: (signal?.data as { by?: string } | undefined)?.by ?? null };
    },
  ),
  client.createFunction({ id: "napper", triggers: [{ event: "test/nap" }] }, async ({ event, step }) => {
    const { token } = event.data as TokenData;
    await step.run("before", () => bump(`${token}:before`));
    await step.sleep("long-nap", "2s");
    await step.run("after", () => bump(`${token}:after`));
    return "rested";
  }),
];

let server: http.Server;
let appUrl: string;
/** Call Requests the app's serve handler answered, per function id. */
const callRequests = new Map<string, number>();
const executors: EmbeddedExecutor[] = [];

async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const created = http.createServer(handler);
  await new Promise<void>((resolve) => created.listen(0, "127.0.0.1", resolve));
  return { server: created, url: `http://127.0.0.1:${(created.address() as AddressInfo).port}` };
}

async function startExecutor(overrides: Partial<EmbeddedExecutorOptions> = {}) {
  const executor = new EmbeddedExecutor({ appUrl, db, signingKey, retryBackoffMs: () => 100, scanIntervalMs: 500, ...overrides });
  executors.push(executor);
  await executor.start();
  return executor;
}

const waitFor = <T>(probe: () => Promise<T | null | undefined | false>, timeoutMs?: number) =>
  until(probe, "a run of this suite in the state awaited", { timeoutMs });

const runFor = (functionId: string, eventId: string) =>
  db.inngestRun.findFirst({ where: { appId, functionId: fnId(functionId), eventId } });
const finishedRun = (functionId: string, eventId: string, timeoutMs?: number) =>
  waitFor(async () => {
    const run = await runFor(functionId, eventId);
    return run && (run.status === "completed" || run.status === "failed") ? run : null;
  }, timeoutMs);

beforeAll(async () => {
  const handler = serve({ client, functions });
  ({ server, url: appUrl } = await listen((req, res) => {
    const functionId = new URL(req.url ?? "/", "http://app").searchParams.get("fnId");
    if (req.method === "POST" && functionId) callRequests.set(functionId, (callRequests.get(functionId) ?? 0) + 1);
    return handler(req, res);
  }));
  // A step limit of 50 instead of Inngest's 1,000 (RUN_LIMITS), so the limit is reached in seconds.
  current = await startExecutor({ limits: { maxSteps: STEP_LIMIT } });
  expect(current.synced).toBe(true);
});

afterAll(async () => {
  for (const executor of executors) await executor.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.inngestRun.deleteMany({ where: { appId } });
  await db.inngestEvent.deleteMany({ where: { appId } });
  await db.inngestCronTick.deleteMany({ where: { functionId: { startsWith: `${appId}` } } });
  await disconnectDb();
});

// The same functions through the handler the app registers for in-process Call Requests
// (app/api/inngest/route.ts: inngest/next's POST, no signature check), called as a function: the
// run's steps, checkpoints, retries and failures come back as over HTTP, and no Call Request
// reaches the HTTP server.
describe("embedded inngest executor, the handler called in process", () => {
  let unregister: () => void = () => undefined;
  const httpCalls = () => [...callRequests.values()].reduce((sum, count) => sum + count, 0);

  beforeAll(() => {
    const { POST } = serveNext({ client, functions, ...{ skipSignatureValidation: true } });
    unregister = registerServeHandler(appId, inProcessServeHandler(POST));
  });

  afterAll(() => unregister());

  it("runs multi-step, checkpointing, retried and failing functions with no HTTP Call Request", async () => {
    const before = httpCalls();
    const [multi, checkpointed, flaky, doomed] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await client.send([
      { id: multi, name: "test/multi", data: { token: multi } },
      { id: checkpointed, name: "test/checkpointed", data: { token: checkpointed } },
      { id: flaky, name: "test/flaky", data: { token: flaky } },
      { id: doomed, name: "test/doomed", data: { token: doomed } },
    ]);
    expect(await finishedRun("multi-step", multi)).toMatchObject({ status: "completed", output: { sum: 6 } });
    expect([calls.get(`${multi}:a`), calls.get(`${multi}:b`), calls.get(`${multi}:c`)]).toEqual([1, 1, 1]);
    const checkpointedRun = await finishedRun("checkpointed", checkpointed);
    expect(checkpointedRun).toMatchObject({ status: "completed", output: { sum: 3 } });
    expect(Object.values(checkpointedRun.steps as object)).toEqual([
      { type: "data", data: 1 },
      { type: "data", data: 2 },
    ]);
    expect(await finishedRun("flaky-step", flaky)).toMatchObject({ status: "completed", output: "ok" });
    expect(calls.get(flaky)).toBe(3);
    expect(await finishedRun("doomed", doomed)).toMatchObject({ status: "failed" });
    expect(httpCalls()).toBe(before);
  });
});

describe("embedded inngest executor", () => {
  it("learns the served functions, onFailure handlers included, through the sync", () => {
    expect(current.functionIds()).toEqual(expect.arrayContaining([fnId("multi-step"), fnId("doomed"), fnId("doomed-failure")]));
  });

  it("runs a multi-step function to completion, each step body once", async () => {
    const token = randomUUID();
    const sentAt = Date.now();
    const { ids } = await client.send({ id: token, name: "test/multi", data: { token } });
    expect(ids).toEqual([token]);
    const run = await finishedRun("multi-step", token);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ sum: 6 });
    expect([calls.get(`${token}:a`), calls.get(`${token}:b`), calls.get(`${token}:c`)]).toEqual([1, 1, 1]);
    expect(Object.values(run.steps as object)).toHaveLength(3);
    const [first, second, third] = seen.get(`${token}:times`) as number[];
    console.log(
      `embedded executor timings: event→first step ${(first as number) - sentAt} ms, step→step ${(second as number) - (first as number)} ms and ${(third as number) - (second as number)} ms`,
    );
  });

  it("runs a checkpointing function's steps and its return in one Call Request, the steps kept in the run's record", async () => {
    const token = randomUUID();
    const before = callRequests.get(fnId("checkpointed")) ?? 0;
    await client.send({ id: token, name: "test/checkpointed", data: { token } });
    const run = await finishedRun("checkpointed", token);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ sum: 3 });
    expect([calls.get(`${token}:a`), calls.get(`${token}:b`)]).toEqual([1, 1]);
    expect((callRequests.get(fnId("checkpointed")) ?? 0) - before).toBe(1);
    expect(Object.values(run.steps as object)).toEqual([
      { type: "data", data: 1 },
      { type: "data", data: 2 },
    ]);
    expect(run.stack).toHaveLength(2);
  });

  it("checkpoints a checkpointing function's steps before its wait, and runs none of them again after it", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/checkpointed-wait", data: { token } });
    // Parked on its wait, the step before it already in the record (checkpointed to the executor).
    const parked = await waitFor(async () => {
      const run = await runFor("checkpointed-waiter", token);
      return run?.status === "waiting" ? run : null;
    });
    expect(Object.values(parked.steps as object)).toEqual([{ type: "data", data: "before" }]);
    await client.send({ name: "test/checkpointed-go", data: { token, by: "tester" } });
    const run = await finishedRun("checkpointed-waiter", token);
    expect(run.output).toEqual({ before: "before", after: "after", by: "tester" });
    expect([calls.get(`${token}:before`), calls.get(`${token}:after`)]).toEqual([1, 1]);
  });

  it("runs parallel steps (Promise.all) each once, then continues", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/parallel", data: { token } });
    const run = await finishedRun("parallel", token);
    expect(run.output).toBe("xyz");
    expect([calls.get(`${token}:x`), calls.get(`${token}:y`), calls.get(`${token}:z`)]).toEqual([1, 1, 1]);
  });

  it("drives runs in parallel, at most 16 at once, with no listener warning for its 16 calls in flight", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on("warning", onWarning);
    const tokens = Array.from({ length: 24 }, () => randomUUID());
    await client.send(tokens.map((token) => ({ id: token, name: "test/slow", data: { token } })));
    // All 16 slots fill while every run is held; the other 8 wait for a slot.
    await waitFor(async () => inFlight.now === 16, 60_000);
    const held = await db.inngestRun.count({ where: { appId, functionId: fnId("slow"), status: "running" } });
    gate.open();
    for (const token of tokens) expect((await finishedRun("slow", token, 60_000)).output).toBe("done");
    process.off("warning", onWarning);
    expect(held).toBe(24);
    expect(inFlight.max).toBe(16);
    // Each held call listened on the executor's abort signal: 16 at once, above Node's default 10.
    expect(warnings.filter((warning) => warning.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  });

  it("retries a failing step with backoff until it succeeds", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/flaky", data: { token } });
    const run = await finishedRun("flaky-step", token);
    expect(run.status).toBe("completed");
    expect(run.output).toBe("ok");
    expect(calls.get(token)).toBe(3);
  });

  it("memoizes a step's final error for the function to catch", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/catches", data: { token } });
    const run = await finishedRun("catches", token);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ caught: "hopeless 2" });
    expect(calls.get(token)).toBe(2);
  });

  it("runs onFailure with the error once the retries are exhausted", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/doomed", data: { token } });
    const run = await finishedRun("doomed", token);
    expect(run.status).toBe("failed");
    expect(calls.get(token)).toBe(2);
    expect(run.error).toMatchObject({ message: `always fails ${token}` });
    const failure = await waitFor(async () => seen.get(`${token}:failure`)?.[0]);
    expect(failure).toEqual({ message: `always fails ${token}`, functionId: fnId("doomed"), runId: run.id });
    const handlerRun = await finishedRun("doomed-failure", `inngest/function.failed:${run.id}`);
    expect(handlerRun.status).toBe("completed");
  });

  it("fails at once on NonRetriableError", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/refuses", data: { token } });
    const run = await finishedRun("refuses", token);
    expect(run.status).toBe("failed");
    expect(calls.get(token)).toBe(1);
  });

  it("wakes a step.sleep after about a second", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/sleep", data: { token } });
    const run = await finishedRun("sleeper", token);
    const { slept } = run.output as { slept: number };
    expect(slept).toBeGreaterThanOrEqual(990);
    expect(slept).toBeLessThan(2500);
  });

  it("retries at a RetryAfterError's date to the millisecond (0.5, 1.5, 3, 5 s)", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/retry-after", data: { token } });
    const run = await finishedRun("retry-after", token);
    expect(run.output).toBe(5);
    const [start, ...retries] = seen.get(token) as number[];
    const offsets = retries.map((time) => time - (start as number));
    console.log(`RetryAfterError attempts at +${offsets.join(", +")} ms`);
    // Never early; late only by scheduling noise (2 shared cores under a full suite).
    [500, 1500, 3000, 5000].forEach((expected, index) => {
      const offset = offsets[index] as number;
      expect(offset).toBeGreaterThanOrEqual(expected - 20);
      expect(offset).toBeLessThanOrEqual(expected + 1000);
    });
  });

  it("step.sendEvent starts the function the event triggers", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/parent", data: { token } });
    const parent = await finishedRun("parent", token);
    const { ids } = parent.output as { ids: string[] };
    expect(ids).toHaveLength(1);
    const child = await finishedRun("child", ids[0] as string);
    expect(child.output).toBe("child done");
    expect(seen.get(token)).toEqual(["child ran"]);
  });

  it("step.waitForEvent resumes on the matching event only", async () => {
    const requestId = randomUUID();
    await client.send({ id: requestId, name: "test/wait-start", data: { requestId, timeout: "10s" } });
    await waitFor(async () => (await runFor("waiter", requestId))?.status === "waiting");
    await client.send({ name: "test/approved", data: { requestId: randomUUID(), by: "mallory" } });
    await client.send({ name: "test/approved", data: { requestId, by: "alice" } });
    const run = await finishedRun("waiter", requestId);
    expect(run.output).toEqual({ approvedBy: "alice" });
  });

  it("step.waitForEvent matches a literal condition", async () => {
    const requestId = randomUUID();
    await client.send({ id: requestId, name: "test/literal-start", data: { requestId } });
    await waitFor(async () => (await runFor("literal-waiter", requestId))?.status === "waiting");
    await client.send([
      { name: "test/signal", data: { requestId, kind: "stop" } },
      { name: "test/signal", data: { requestId, kind: "go" } },
    ]);
    const run = await finishedRun("literal-waiter", requestId);
    expect(run.output).toEqual({ kind: "go" });
  });

  it("step.waitForEvent times out to null", async () => {
    const requestId = randomUUID();
    await client.send({ id: requestId, name: "test/wait-start", data: { requestId, timeout: "1s" } });
    const run = await finishedRun("waiter", requestId);
    expect(run.output).toEqual({ approvedBy: null });
    // Never before its timeout, by the executor's own record of the run.
    expect(run.finishedAt!.getTime() - run.createdAt.getTime()).toBeGreaterThanOrEqual(1000);
  });

  it("accepts a repeated event id once", async () => {
    const token = randomUUID();
    const first = await client.send({ id: token, name: "test/multi", data: { token } });
    const again = await client.send([
      { id: token, name: "test/multi", data: { token } },
      { id: token, name: "test/multi", data: { token } },
    ]);
    expect(first.ids).toEqual([token]);
    expect(again.ids).toEqual([token, token]);
    await finishedRun("multi-step", token);
    // One event row for the id: once it is dispatched, no other run can come from it.
    await waitFor(() => db.inngestEvent.findFirst({ where: { appId, id: token, dispatchedAt: { not: null } } }));
    expect(await db.inngestRun.count({ where: { appId, functionId: fnId("multi-step"), eventId: token } })).toBe(1);
    expect(calls.get(`${token}:a`)).toBe(1);
  });

  it("starts runs inside a caller's transaction: none if it rolls back, one per id, driven once enqueued", async () => {
    const rolledBack = randomUUID();
    await expect(
      db.$transaction(async (tx) => {
        expect(
          await current.startRunsInTransaction(tx, [{ id: rolledBack, name: "test/multi", data: { token: rolledBack } }]),
        ).toHaveLength(1);
        throw new Error("the caller's write failed");
      }),
    ).rejects.toThrow("the caller's write failed");
    expect(await db.inngestEvent.count({ where: { appId, id: rolledBack } })).toBe(0);
    expect(await db.inngestRun.count({ where: { appId, eventId: rolledBack } })).toBe(0);

    const token = randomUUID();
    const runs = await db.$transaction((tx) => current.startRunsInTransaction(tx, [{ id: token, name: "test/multi", data: { token } }]));
    // Written under this executor's lease, with the record its first drive uses instead of a claim.
    const leased = { record: expect.objectContaining({ status: "running", steps: {}, stack: [], pending: [] }), until: expect.any(Number) };
    expect(runs).toEqual([{ id: expect.any(String), functionId: fnId("multi-step"), key: "", leased }]);
    const written = await db.inngestRun.findUniqueOrThrow({ where: { id: runs![0]!.id } });
    expect(written.leaseOwner).toBe(current.owner);
    expect(written.leaseExpiresAt?.getTime()).toBe(runs![0]!.leased!.until);
    expect(runs![0]!.leased!.record).toEqual(toRecord(written));
    const event = await db.inngestEvent.findUniqueOrThrow({ where: { appId_id: { appId, id: token } } });
    expect(event.dispatchedAt).not.toBeNull();
    // The same id again, in a transaction (beside a new one) or sent: accepted once, as a send would be.
    const other = randomUUID();
    const again = await db.$transaction((tx) =>
      current.startRunsInTransaction(tx, [
        { id: token, name: "test/multi", data: { token } },
        { id: other, name: "test/multi", data: { token: other } },
      ]),
    );
    expect(again).toEqual([{ id: expect.any(String), functionId: fnId("multi-step"), key: "", leased }]);
    expect(again![0]!.id).toBe((await runFor("multi-step", other))!.id);
    await client.send({ id: token, name: "test/multi", data: { token } });
    current.enqueue([...runs!, ...again!]);
    expect((await finishedRun("multi-step", other)).output).toEqual({ sum: 6 });
    const run = await finishedRun("multi-step", token);
    expect(run.output).toEqual({ sum: 6 });
    expect(await db.inngestRun.count({ where: { appId, eventId: token } })).toBe(1);
    expect(calls.get(`${token}:a`)).toBe(1);
  });

  it("starts runs from WITH items of a caller's statement (prepareRunsInTransaction): written with it, none if it rolls back", async () => {
    const statement = (items: Prisma.Sql[], startedIn: string) =>
      Prisma.sql`WITH ${Prisma.join(items, ", ")}, caller AS (SELECT 1 AS one) SELECT (SELECT coalesce(array_agg(id), '{}') FROM ${Prisma.raw(startedIn)}) AS started, one FROM caller`;
    const rolledBack = randomUUID();
    const undone = current.prepareRunsInTransaction([{ id: rolledBack, name: "test/multi", data: { token: rolledBack } }])!;
    await expect(
      inTransaction(async (tx) => {
        await queryInTransaction(tx, statement(undone.items, undone.startedIn));
        throw new Error("the caller's write failed");
      }),
    ).rejects.toThrow("the caller's write failed");
    expect(await db.inngestRun.count({ where: { appId, eventId: rolledBack } })).toBe(0);
    expect(await db.inngestEvent.count({ where: { appId, id: rolledBack } })).toBe(0);

    const token = randomUUID();
    const prepared = current.prepareRunsInTransaction([{ id: token, name: "test/multi", data: { token } }])!;
    const [row] = await inTransaction((tx) =>
      queryInTransaction<{ started: string[]; one: number }>(tx, statement(prepared.items, prepared.startedIn)),
    );
    expect(row!.one).toBe(1);
    expect(row!.started).toHaveLength(1);
    const runs = prepared.runs(row!.started);
    expect(runs).toEqual([
      { id: row!.started[0], functionId: fnId("multi-step"), key: "", leased: expect.objectContaining({ until: expect.any(Number) }) },
    ]);
    const written = await db.inngestRun.findUniqueOrThrow({ where: { id: runs[0]!.id } });
    expect(written.leaseOwner).toBe(current.owner);
    expect(runs[0]!.leased!.record).toEqual(toRecord(written));
    // The same id again: no run (as a send of a repeated id), and the runs of the first are driven.
    const again = current.prepareRunsInTransaction([{ id: token, name: "test/multi", data: { token } }])!;
    const [repeated] = await inTransaction((tx) => queryInTransaction<{ started: string[] }>(tx, statement(again.items, again.startedIn)));
    expect(again.runs(repeated!.started)).toEqual([]);
    current.enqueue(runs);
    expect((await finishedRun("multi-step", token)).output).toEqual({ sum: 6 });
    expect(calls.get(`${token}:a`)).toBe(1);
  });

  // The scan can find a run between its caller's commit and enqueue() (a busy host, or the caller
  // still has work before its enqueue): the run's record as written is stale once the scan's drive
  // ran steps, and the enqueue must not drive it again from there (CI saw step "a" run twice).
  it("does not drive a run again from its start record when a scan drove it before its enqueue", async () => {
    const own = await startExecutor();
    const statement = (items: Prisma.Sql[], startedIn: string) =>
      Prisma.sql`WITH ${Prisma.join(items, ", ")} SELECT coalesce(array_agg(id), '{}') AS started FROM ${Prisma.raw(startedIn)}`;
    const token = randomUUID();
    const prepared = own.prepareRunsInTransaction([{ id: token, name: "test/multi", data: { token } }])!;
    const [row] = await inTransaction((tx) => queryInTransaction<{ started: string[] }>(tx, statement(prepared.items, prepared.startedIn)));
    const runs = prepared.runs(row!.started);
    expect(runs).toHaveLength(1);
    // No enqueue yet: the scan (every 500 ms) drives it to the end.
    const finished = await finishedRun("multi-step", token);
    expect(finished.output).toEqual({ sum: 6 });
    expect(calls.get(`${token}:a`)).toBe(1);
    // The late enqueue, then the stop, which waits for any drive it started.
    own.enqueue(runs);
    await own.stop();
    expect(calls.get(`${token}:a`)).toBe(1);
    expect(calls.get(`${token}:b`)).toBe(1);
    const after = await db.inngestRun.findUniqueOrThrow({ where: { id: runs[0]!.id } });
    expect(after).toMatchObject({ status: "completed", output: { sum: 6 }, leaseOwner: null });
  });

  it("finds a run started in a transaction but never enqueued (the process died after the commit)", async () => {
    const token = randomUUID();
    await db.$transaction((tx) => current.startRunsInTransaction(tx, [{ id: token, name: "test/multi", data: { token } }]));
    // No enqueue(): the next scan (every 500 ms here) sees the run due and drives it.
    expect((await finishedRun("multi-step", token)).output).toEqual({ sum: 6 });
  });

  it("fails a run at its step limit (Inngest's 1,000) without running another step", async () => {
    expect(RUN_LIMITS.maxSteps).toBe(1000);
    const token = randomUUID();
    await client.send({ id: token, name: "test/steps", data: { token, steps: STEP_LIMIT + 5 } });
    const run = await finishedRun("stepper", token, 60_000);
    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({
      name: "InngestErrFunctionOverflowed",
      message: `The function run exceeded the step limit of ${STEP_LIMIT} steps.`,
    });
    expect(calls.get(`${token}:steps`)).toBe(STEP_LIMIT);
    expect(run.stack).toHaveLength(STEP_LIMIT);
  }, 90_000);

  it("runs a function of one step under the limit to completion", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/steps", data: { token, steps: STEP_LIMIT - 1 } });
    const run = await finishedRun("stepper", token, 60_000);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual({ ran: STEP_LIMIT - 1 });
  }, 90_000);

  it("fails a step whose output is over 4 MiB, once, with an error the function can catch", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/big-output", data: { token } });
    const run = await finishedRun("big-output", token);
    expect(run.status).toBe("completed");
    expect((run.output as { caught: string }).caught).toMatch(/^step output size is greater than the limit: \d+ bytes, at most 4194304$/);
    expect(calls.get(`${token}:huge`)).toBe(1);
  });

  it("refuses an event over 256 KiB at send, and a name over 256 characters, storing neither", async () => {
    const token = randomUUID();
    await expect(client.send({ id: token, name: "test/multi", data: { token, pad: "x".repeat(256 * 1024) } })).rejects.toThrow(
      /at most 262144 bytes/,
    );
    await expect(client.send({ id: `${token}-name`, name: `test/${"n".repeat(256)}`, data: { token } })).rejects.toThrow(
      /longer than 256 characters/,
    );
    expect(await db.inngestEvent.count({ where: { appId, id: { in: [token, `${token}-name`] } } })).toBe(0);
    // Just under the limit is accepted.
    const fits = randomUUID();
    await client.send({ id: fits, name: "test/multi", data: { token: fits, pad: "x".repeat(200 * 1024) } });
    expect((await finishedRun("multi-step", fits)).status).toBe("completed");
  });

  it("starts another function's run while a backlog of one function waits, within the backlog's own limit", async () => {
    const backlog = Array.from({ length: 40 }, () => randomUUID());
    await client.send(backlog.map((token) => ({ id: token, name: "test/backlog", data: { token } })));
    await waitFor(async () => backlogInFlight.now === 3);
    const urgent = randomUUID();
    await client.send({ id: urgent, name: "test/urgent", data: { token: urgent } });
    expect((await finishedRun("urgent", urgent)).status).toBe("completed");
    // Done while 37 backlog runs still wait: only the three under the limit started before it.
    const order = seen.get("fair:order") as string[];
    expect(order.indexOf(urgent)).toBe(3);
    expect(await db.inngestRun.count({ where: { appId, functionId: fnId("backlog"), status: "running" } })).toBe(40);
    backlogGate.open();
    for (const token of backlog) expect((await finishedRun("backlog", token, 60_000)).output).toBe(token);
    expect(backlogInFlight.max).toBe(3);
  }, 120_000);

  it("re-drives a sleeping run and an undispatched event after a restart", async () => {
    const token = randomUUID();
    await client.send({ id: token, name: "test/nap", data: { token } });
    const sleeping = await waitFor(async () => {
      const run = await runFor("napper", token);
      return run?.status === "sleeping" ? run : null;
    });
    await current.stop();
    // Written while no executor runs: what a send just before a crash leaves behind.
    const lateToken = randomUUID();
    await persistEvents(db, appId, [{ id: lateToken, name: "test/multi", data: { token: lateToken } }], { now: Date.now() });

    current = await startExecutor();
    const run = await finishedRun("napper", token);
    expect(run.id).toBe(sleeping.id);
    expect(run.status).toBe("completed");
    expect([calls.get(`${token}:before`), calls.get(`${token}:after`)]).toEqual([1, 1]);
    const late = await finishedRun("multi-step", lateToken);
    expect(late.output).toEqual({ sum: 6 });
  });
});

describe("cron triggers", () => {
  const cronClient = new Inngest(
    embeddedClientOptions({ id: `${appId}-cron`, sink: () => current, signingKey: () => signingKey, logger: silent }),
  );
  const ticks: Array<{ name: string; cron: unknown; ts: number }> = [];
  const ticker = cronClient.createFunction({ id: "ticker", triggers: [{ cron: "* * * * *" }] }, async ({ event }) => {
    ticks.push({ name: event.name, cron: (event.data as { cron?: unknown }).cron, ts: event.ts ?? 0 });
    return "ticked";
  });
  const tickerId = `${appId}-cron-ticker`;
  let cronServer: http.Server;
  let cronUrl: string;

  beforeAll(async () => {
    ({ server: cronServer, url: cronUrl } = await listen(serve({ client: cronClient, functions: [ticker] })));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => cronServer.close(() => resolve()));
    await db.inngestRun.deleteMany({ where: { appId: `${appId}-cron` } });
  });

  it("fires a tick on the minute, claimed by exactly one executor", async () => {
    // One executor on a fake clock 1.5 s before a whole minute that the real clock reaches only in
    // two minutes: its timer fires the tick when the clock is moved there, the other (real) executor
    // then finds it claimed.
    const tickAt = Math.ceil(Date.now() / 60_000) * 60_000 + 120_000;
    const fake = new FakeClock(tickAt - 1_500);
    const shifted = await startExecutor({ appUrl: cronUrl, clock: fake });
    const other = await startExecutor({ appUrl: cronUrl });
    await until(() => fake.nextTimerAt() === tickAt, "the tick's timer armed on the fake clock");
    fake.advanceTo(tickAt);

    const run = await until(async () => {
      const found = await db.inngestRun.findFirst({
        where: { functionId: tickerId, eventId: `cron:${tickerId}:${new Date(tickAt).toISOString()}` },
      });
      return found?.status === "completed" ? found : null;
    }, "the tick's run completed");
    expect(run.output).toBe("ticked");
    expect(await other.fireCronTick(tickerId, new Date(tickAt))).toBeNull();
    expect(await shifted.fireCronTick(tickerId, new Date(tickAt))).toBeNull();
    expect(ticks.filter((tick) => tick.ts === tickAt)).toEqual([{ name: "inngest/scheduled.timer", cron: "* * * * *", ts: tickAt }]);

    await shifted.stop();
    await other.stop();
  });
});
