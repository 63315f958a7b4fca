import { describe, expect, it } from "vitest";
import { ownServer } from "@/tests/support/own-server";
import { drillSize, recordDrill, sized, timed } from "./drill";
import {
  clientStats,
  createGeneration,
  expectSettledOnce,
  ownServerDrill,
  pendingDeliveries,
  query,
  settlementOf,
  statusCounts,
  TERMINAL,
  waitUntil,
} from "./own-server-drill";
import { webhookReceiver } from "./webhook-receiver";

// R6 restart (issue #13): the server is stopped as an operator stops it (SIGTERM) while
// generations and webhook deliveries are in flight, and started again: every generation finishes
// and is settled once, every delivery is delivered, and no event reaches a receiver endpoint as
// two deliveries. The generations are slow on purpose ("[local:slow=…]", on both providers:
// routing may try local-backup first) and the receiver answers slowly until the stop, so both are
// still under way when it comes; several endpoints multiply the deliveries (each generation event
// makes one per endpoint). An account runs at most 8 generation steps at once (run-generation's
// keyed concurrency), so 8 generations are at their provider and the rest wait their turn (all
// in flight); their generation.started events to every endpoint are what piles up: 8 × 26 = 208
// at full size, 8 × 4 = 32 reduced, and the stop comes while the executor's 12 delivery slots
// still have most of them to go. After the start the receiver answers at once.

const GENERATIONS = sized(10, 50);
const DELIVERIES_IN_FLIGHT = sized(20, 200);
const ENDPOINTS = sized(4, 26);
const PROVIDER_SLOW_MS = sized(12_000, 20_000);
/**
 * The stop comes at the latest this long after the creates, while the first wave still renders, so
 * every generation is in flight whatever the host's speed; on a slow host fewer deliveries have
 * piled up by then (at least DELIVERIES_AT_LEAST, and the figure is reported).
 */
const STOP_AT_LATEST_MS = PROVIDER_SLOW_MS * 0.6;
const DELIVERIES_AT_LEAST = sized(8, 50);
/** Until the stop: 12 deliveries at once at this pace drain 1.5 to 3 a second. */
const RECEIVER_DELAY_MS = sized(4000, 8000);

const server = ownServer("r6-restart", { env: { WEBHOOK_ALLOW_LOOPBACK: "1" } });
const receiver = webhookReceiver({ delayMs: RECEIVER_DELAY_MS });
const endpoints = Array.from({ length: ENDPOINTS }, (_, index) => `r6-${index + 1}`);
const drill = ownServerDrill(server, receiver, endpoints, 240_000);

describe("R6 restart", () => {
  it(
    `SIGTERM with ${GENERATIONS} generations and ${DELIVERIES_IN_FLIGHT}+ webhook deliveries in flight, then a start: all finish, none twice`,
    async () => {
      const accountId = drill.accountId();
      const stats = clientStats();
      const ids: string[] = [];
      let atStop = { generations: 0, deliveries: 0 };
      let stopMs = 0;
      let startMs = 0;

      const { durationMs } = await timed(async () => {
        const deadline = Date.now() + sized(150_000, 600_000);
        ids.push(
          ...(await Promise.all(
            Array.from({ length: GENERATIONS }, (_, index) =>
              createGeneration(
                server,
                `[local:slow=${PROVIDER_SLOW_MS}][local-backup:slow=${PROVIDER_SLOW_MS}] restart drill ${index}`,
                `r6-${index}`,
                stats,
                deadline,
              ),
            ),
          )),
        );

        // Stop once enough is under way: every generation still unfinished and the deliveries piled
        // up, or before the first renders can end (a slow host piles up deliveries more slowly).
        const createdAt = performance.now();
        await waitUntil(
          async () => {
            const counts = await statusCounts(server, accountId);
            const pending = await pendingDeliveries(server, accountId);
            if (!counts || pending === null) return false;
            atStop = { generations: (counts.pending ?? 0) + (counts.processing ?? 0), deliveries: pending };
            return (
              atStop.deliveries >= DELIVERIES_IN_FLIGHT ||
              (performance.now() - createdAt >= STOP_AT_LATEST_MS && atStop.deliveries >= DELIVERIES_AT_LEAST)
            );
          },
          deadline,
          () => `in flight ${JSON.stringify(atStop)}`,
        );
        expect(atStop.generations, "generations in flight at the stop").toBe(GENERATIONS);

        let started = performance.now();
        await server.stop();
        stopMs = Math.round(performance.now() - started);
        started = performance.now();
        await server.start();
        startMs = Math.round(performance.now() - started);
        receiver.setDelay(0);

        await waitUntil(
          async () => {
            const counts = await statusCounts(server, accountId);
            return counts !== null && Object.keys(counts).every((status) => TERMINAL.includes(status));
          },
          deadline,
          async () => `generations by status ${JSON.stringify(await statusCounts(server, accountId))}`,
        );
        await waitUntil(
          async () => (await pendingDeliveries(server, accountId)) === 0,
          deadline,
          async () => `${await pendingDeliveries(server, accountId)} deliveries pending`,
        );
        await new Promise((resolve) => setTimeout(resolve, 3000));
      });

      const { generations, balance } = await settlementOf(server, accountId);
      expect(generations.map((row) => row.id).sort()).toEqual([...ids].sort());
      expectSettledOnce(generations);
      expect(Number(balance.balance), "balance = adds − reserves + refunds").toBe(Number(balance.from_ledger));

      // Every delivery the service made was delivered, and the receiver accepted each one.
      const stored =
        (await query<{ id: string; status: string; event: string; event_key: string; endpoint_id: string }>(
          server,
          `SELECT id, status::text, event, event_key, endpoint_id FROM webhook_delivery WHERE account_id = $1`,
          [accountId],
        )) ?? [];
      expect(stored.filter((row) => row.status !== "delivered")).toEqual([]);
      const received = new Map(receiver.deliveries().map((delivery) => [delivery.deliveryId, delivery]));
      expect(stored.filter((row) => !(received.get(row.id)?.accepted ?? 0)).map((row) => row.id)).toEqual([]);

      // Per generation and endpoint: one generation.started and one terminal event, as distinct deliveries.
      const statusById = new Map(generations.map((row) => [row.id, row.status]));
      const eventFor: Record<string, string> = {
        succeeded: "generation.completed",
        failed: "generation.failed",
        canceled: "generation.canceled",
      };
      const perEndpoint = new Map<string, string[]>();
      for (const delivery of receiver.deliveries()) {
        if (delivery.accepted === 0 || !delivery.generationId) continue;
        const key = `${delivery.generationId} ${delivery.endpoint}`;
        perEndpoint.set(key, [...(perEndpoint.get(key) ?? []), delivery.event].sort());
      }
      for (const id of ids) {
        for (const endpoint of endpoints) {
          expect(perEndpoint.get(`${id} ${endpoint}`), `${id} at ${endpoint}`).toEqual(
            [eventFor[statusById.get(id)!]!, "generation.started"].sort(),
          );
        }
      }
      const counts = receiver.counts();
      expect(counts.badSignatures).toBe(0);

      recordDrill("restart", {
        drill: "R6",
        title: `R6 restart: SIGTERM with ${GENERATIONS} generations and ${DELIVERIES_IN_FLIGHT}+ webhook deliveries in flight`,
        size: drillSize(),
        durationMs,
        figures: {
          stop: "SIGTERM (as an operator stops it), then a start on the same data",
          "provider latency (ms)": PROVIDER_SLOW_MS,
          "receiver answers after (ms), until the stop": RECEIVER_DELAY_MS,
          generations: GENERATIONS,
          "webhook endpoints": ENDPOINTS,
          "generations in flight at the stop": atStop.generations,
          "deliveries pending at the stop": atStop.deliveries,
          "stop took (ms)": stopMs,
          "start took (ms)": startMs,
          succeeded: generations.filter((row) => row.status === "succeeded").length,
          failed: generations.filter((row) => row.status === "failed").length,
          "balance after the run": balance.balance,
          "ledger: adds − reserves + refunds": balance.from_ledger,
          "deliveries made": stored.length,
          "deliveries delivered": stored.filter((row) => row.status === "delivered").length,
          "webhook POSTs": counts.posts,
          "same delivery accepted again (de-duplicated)": counts.repeatedAccepts,
          "events received as two distinct deliveries": [...perEndpoint.values()].reduce(
            (sum, events) => sum + events.length - new Set(events).size,
            0,
          ),
          "bad signatures": counts.badSignatures,
        },
        checked: [
          "every generation in flight at the stop ended after the start, each with one reserve and one charge (or one refund)",
          "the balance equals adds − reserves + refunds of the ledger",
          "every delivery the service made is delivered and was accepted by the receiver",
          "each endpoint got exactly one generation.started and one terminal event per generation (distinct delivery ids)",
          "no POST had a bad signature",
        ],
      });
    },
    sized(180_000, 900_000),
  );
});
