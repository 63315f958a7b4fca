import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Inngest } from "inngest";
import { serve } from "inngest/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/db";
import type { PrismaClient } from "@/server/generated/prisma/client";
import { embeddedClientOptions } from "@/server/events/embedded-client";
import { EmbeddedExecutor, type EmbeddedExecutorOptions } from "@/server/inngest/executor/executor";
import { Timers } from "@/server/inngest/executor/scheduler";

// Every wake-up of the embedded executor must come from its own signals (an ingested event, a
// freed slot, a run's timer), never from the periodic re-scan, which is only the safety net for
// work written elsewhere. So these executors re-scan once at start and then not for 10 minutes:
// a run that needs the re-scan here never finishes.

const NO_RESCAN = 600_000;
const appId = `executor-wakeups-${randomUUID().slice(0, 8)}`;
const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
const silent = { info() {}, warn() {}, error() {}, debug() {} };
let sink: EmbeddedExecutor | null = null;
const client = new Inngest(embeddedClientOptions({ id: appId, sink: () => sink as EmbeddedExecutor, signingKey: () => signingKey, logger: silent }));
const fnId = (id: string) => `${appId}-${id}`;

type TokenData = { token: string };
const started = new Map<string, number>();
const gates = new Map<string, () => void>();
const gate = (token: string) => new Promise<void>((resolve) => gates.set(token, resolve));
const openGate = (token: string) => gates.get(token)?.();

const functions = [
  client.createFunction({ id: "gated", triggers: [{ event: "wakeups/gated" }] }, async ({ event, step }) =>
    step.run("hold", async () => {
      const { token } = event.data as TokenData;
      started.set(token, Date.now());
      await gate(token);
      return token;
    }),
  ),
  client.createFunction({ id: "quick", triggers: [{ event: "wakeups/quick" }] }, async ({ event, step }) => step.run("once", () => (event.data as TokenData).token)),
  client.createFunction({ id: "napper", triggers: [{ event: "wakeups/nap" }] }, async ({ step }) => {
    await step.sleep("nap", "1s");
    return step.run("after", () => Date.now());
  }),
];

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

async function waitFor<T>(probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const runFor = (functionId: string, eventId: string) => db.inngestRun.findFirst({ where: { appId, functionId: fnId(functionId), eventId } });
const completedRun = (functionId: string, eventId: string, timeoutMs?: number) =>
  waitFor(async () => {
    const run = await runFor(functionId, eventId);
    return run?.status === "completed" ? run : null;
  }, timeoutMs);

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
      await waitFor(() => started.has(first) && started.has(second));

      await client.send({ id: waiting, name: "wakeups/gated", data: { token: waiting } });
      // Dispatched at once even though no slot is free; not started while both slots are held.
      await waitFor(() => runFor("gated", waiting));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(started.has(waiting)).toBe(false);

      const freedAt = Date.now();
      openGate(first);
      await waitFor(() => started.has(waiting), 5000);
      const delay = (started.get(waiting) as number) - freedAt;
      console.log(`queued run started ${delay} ms after a slot freed`);
      expect(delay).toBeLessThan(1500);
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
    // time: the clock falls 300 ms behind once the timer is armed, and the read takes 600 ms.
    let lagMs = 0;
    const slowPeek = db.$extends({
      query: {
        inngestRun: {
          async findUnique({ args, query }) {
            await new Promise((resolve) => setTimeout(resolve, 600));
            return query(args);
          },
        },
      },
    }) as unknown as PrismaClient;
    await withExecutor({ db: slowPeek, now: () => Date.now() - lagMs }, async () => {
      const token = randomUUID();
      await client.send({ id: token, name: "wakeups/nap", data: { token } });
      const sleeping = await waitFor(async () => {
        const run = await runFor("napper", token);
        return run?.status === "sleeping" ? run : null;
      });
      await new Promise((resolve) => setTimeout(resolve, 50)); // the timer is armed right after the park
      lagMs = 300;
      const wakeAt = (sleeping.wakeAt as Date).getTime();
      const run = await completedRun("napper", token, 8000);
      // Never early by the executor's clock, and not left waiting for a re-scan.
      expect((run.output as number) - lagMs).toBeGreaterThanOrEqual(wakeAt);
      expect(run.finishedAt!.getTime() - wakeAt).toBeLessThan(3000);
    });
  });
});

describe("Timers", () => {
  it("never fires before its time by its own clock", async () => {
    let lagMs = 0;
    const timers = new Timers(() => Date.now() - lagMs);
    const at = Date.now() + 100;
    let firedAt: number | null = null;
    timers.at("key", at, () => {
      firedAt = Date.now() - lagMs;
    });
    lagMs = 80; // the clock falls behind setTimeout's count after the timer is armed
    await waitFor(() => firedAt !== null, 2000);
    expect(firedAt).toBeGreaterThanOrEqual(at);
  });
});
