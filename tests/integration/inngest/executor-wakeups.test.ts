import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Inngest } from "inngest";
import { serve } from "inngest/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import type { PrismaClient } from "@/server/base/generated/prisma/client";
import { embeddedClientOptions } from "@/server/base/events/embedded-client";
import { EmbeddedExecutor, type EmbeddedExecutorOptions } from "@/server/jobs/executor/executor";
import { Timers } from "@/server/jobs/executor/scheduler";
import type { Clock } from "@/server/base/clock";
import { FakeClock } from "@/tests/support/fake-clock";
import { until } from "@/tests/support/until";

// Every wake-up of the embedded executor must come from its own signals (an ingested event, a
// freed slot, a run's timer), never from the periodic re-scan, which is only the safety net for
// work written elsewhere. So these executors re-scan once at start and then not for 10 minutes:
// a run that needs the re-scan here never finishes. Timed wake-ups run on a fake clock
// (tests/support/fake-clock.ts) that the tests move.

const NO_RESCAN = 600_000;
const appId = `executor-wakeups-${randomUUID().slice(0, 8)}`;
const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
const silent = { info() {}, warn() {}, error() {}, debug() {} };
let sink: EmbeddedExecutor | null = null;
const client = new Inngest(
  embeddedClientOptions({ id: appId, sink: () => sink as EmbeddedExecutor, signingKey: () => signingKey, logger: silent }),
);
const fnId = (id: string) => `${appId}-${id}`;

type TokenData = { token: string };
const started = new Set<string>();
const gates = new Map<string, () => void>();
const gate = (token: string) => new Promise<void>((resolve) => gates.set(token, resolve));
const openGate = (token: string) => gates.get(token)?.();

const functions = [
  client.createFunction({ id: "gated", triggers: [{ event: "wakeups/gated" }] }, async ({ event, step }) =>
    step.run("hold", async () => {
      const { token } = event.data as TokenData;
      started.add(token);
      await gate(token);
      return token;
    }),
  ),
  client.createFunction({ id: "quick", triggers: [{ event: "wakeups/quick" }] }, async ({ event, step }) =>
    step.run("once", () => (event.data as TokenData).token),
  ),
  client.createFunction({ id: "napper", triggers: [{ event: "wakeups/nap" }] }, async ({ step }) => {
    await step.sleep("nap", "1s");
    return step.run("after", () => napClock.now());
  }),
];

/** The clock the napper reads when it wakes: the executor's in the test that runs it. */
let napClock: Clock = { now: () => Date.now(), after: () => () => undefined };
let server: http.Server;
let appUrl: string;

async function withExecutor<T>(overrides: Partial<EmbeddedExecutorOptions>, body: (executor: EmbeddedExecutor) => Promise<T>): Promise<T> {
  const executor = new EmbeddedExecutor({ appUrl, db, signingKey, scanIntervalMs: NO_RESCAN, ...overrides });
  sink = executor;
  await executor.start();
  try {
    return await body(executor);
  } finally {
    for (const open of gates.values()) open();
    await executor.stop();
    sink = null;
  }
}

const runFor = (functionId: string, eventId: string) =>
  db.inngestRun.findFirst({ where: { appId, functionId: fnId(functionId), eventId } });
/** The run once completed; `beforeEachProbe` moves a fake clock on, where the run waits on one. */
const completedRun = (functionId: string, eventId: string, beforeEachProbe: () => void = () => undefined) =>
  until(async () => {
    beforeEachProbe();
    const run = await runFor(functionId, eventId);
    return run?.status === "completed" ? run : null;
  }, `${functionId} run ${eventId} completed`);

beforeAll(async () => {
  server = http.createServer(serve({ client, functions }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await db.inngestRun.deleteMany({ where: { appId } });
  await db.inngestEvent.deleteMany({ where: { appId } });
  await disconnectDb();
});

describe("embedded executor wake-ups (no re-scan)", () => {
  it("starts a run queued behind a full executor as soon as a slot frees", async () => {
    await withExecutor({ concurrency: 2 }, async () => {
      const [first, second, waiting] = [randomUUID(), randomUUID(), randomUUID()];
      await client.send([first, second].map((token) => ({ id: token, name: "wakeups/gated", data: { token } })));
      await until(() => started.has(first) && started.has(second), "both slots taken");

      await client.send({ id: waiting, name: "wakeups/gated", data: { token: waiting } });
      // Dispatched at once even though no slot is free; not started while both slots are held.
      await until(() => runFor("gated", waiting), "the third run dispatched");
      expect(started.has(waiting)).toBe(false);

      // With no re-scan, only the freed slot's own signal can start it.
      openGate(first);
      await until(() => started.has(waiting), "the queued run started once a slot freed");
      for (const token of [second, waiting]) openGate(token);
      for (const token of [first, second, waiting]) expect((await completedRun("gated", token)).output).toBe(token);
    });
  });

  it("dispatches events that arrive while a dispatch is under way", async () => {
    await withExecutor({}, async () => {
      const tokens = Array.from({ length: 30 }, () => randomUUID());
      // Separate sends, concurrently: most land while an earlier one is being dispatched.
      await Promise.all(tokens.map((token) => client.send({ id: token, name: "wakeups/quick", data: { token } })));
      for (const token of tokens) expect((await completedRun("quick", token)).output).toBe(token);
    });
  });

  it("re-arms a run whose timer fires before its wake time, even when the time passes during the check", async () => {
    // Node arms setTimeout from the event loop's cached time, so a timer can fire a few ms before
    // wake_at by the executor's clock; the claim then finds the run not yet due, and by the end
    // of the follow-up read (a database round trip) it may be. Scaled up so it happens every
    // time, on a fake clock: the executor's time falls 300 ms behind its timers' once the timer
    // is armed, and 600 ms pass during the read.
    const fake = new FakeClock();
    let lagMs = 0;
    const lagging: Clock = { now: () => fake.now() - lagMs, after: (ms, fire) => fake.after(ms, fire) };
    napClock = lagging;
    const slowPeek = db.$extends({
      query: {
        inngestRun: {
          async findUnique({ args, query }) {
            fake.advance(600);
            return query(args);
          },
        },
      },
    }) as unknown as PrismaClient;
    await withExecutor({ db: slowPeek, clock: lagging }, async () => {
      const token = randomUUID();
      await client.send({ id: token, name: "wakeups/nap", data: { token } });
      const sleeping = await until(async () => {
        const run = await runFor("napper", token);
        return run?.status === "sleeping" ? run : null;
      }, "the napper asleep");
      await until(() => fake.nextTimerAt() !== null, "the napper's timer armed");
      lagMs = 300;
      const wakeAt = (sleeping.wakeAt as Date).getTime();
      // The clock moves only to the timers the executor arms: a run left for the re-scan never completes.
      const run = await completedRun("napper", token, () => fake.fireNext());
      // Never early by the executor's clock.
      expect(run.output as number).toBeGreaterThanOrEqual(wakeAt);
    });
  });
});

describe("Timers", () => {
  it("never fires before its time by its own clock", () => {
    const fake = new FakeClock();
    let lagMs = 0;
    const timers = new Timers({ now: () => fake.now() - lagMs, after: (ms, fire) => fake.after(ms, fire) });
    const at = fake.now() + 100;
    let firedAt: number | null = null;
    timers.at("key", at, () => {
      firedAt = fake.now() - lagMs;
    });
    lagMs = 80; // the clock falls behind its timers' count after the timer is armed
    expect(fake.fireNext()).toBe(true);
    expect(firedAt).toBeNull(); // early by its own clock: armed again for the 80 ms left
    expect(fake.fireNext()).toBe(true);
    expect(firedAt).toBe(at);
    expect(fake.fireNext()).toBe(false);
  });
});
