import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownServer } from "@/tests/support/own-server";
import { query, waitUntil } from "@/tests/reliability/own-server-drill";
import { webhookReceiver } from "@/tests/reliability/webhook-receiver";

// A Cancel-After deadline is data, not a timer in one process (issue #30 §2). Two slow local jobs
// run when the server (and its PostgreSQL) is killed with SIGKILL, then started on the same data:
// - a 5 s deadline on a 30 s job: due while the server is down (a start takes longer than 5 s
//   on a busy 2-core machine), it is canceled at the deadline if the server is back by then, else
//   within a second of the start;
// - a 45 s deadline on a 90 s job: due after the start, it is canceled at 45 s ± 1 s after its
//   creation (the recorded times) by a process that did not exist when it was set.
// Both refunded, never charged, each with one generation.canceled, reason "deadline".

const server = ownServer("deadline-restart", { env: { WEBHOOK_ALLOW_LOOPBACK: "1" } });
const receiver = webhookReceiver();

beforeAll(async () => {
  await receiver.start();
  await server.start();
  const created = await server.cli([
    "webhook:create",
    "--account",
    server.demoAccountId(),
    "--url",
    receiver.url("deadline"),
    "--description",
    "deadline drill",
  ]);
  expect(created.code, JSON.stringify(created.body)).toBe(0);
  receiver.trust("deadline", created.body.secret as string);
}, 180_000);

afterAll(async () => {
  await server.dispose();
  await receiver.close();
}, 60_000);

type Row = { status: string; error_code: string | null; created_at: Date; deadline_at: Date; completed_at: Date | null };

const generationRow = async (id: string) =>
  (
    await query<Row>(server, `SELECT status::text, error_code, created_at, deadline_at, completed_at FROM generation WHERE id = $1`, [id])
  )?.[0];

async function create(cancelAfter: string, prompt: string): Promise<string> {
  const response = await fetch(`${server.baseUrl()}/v1/generate/image/darkroom/lumen-image`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.demoKey()}`, "content-type": "application/json", "cancel-after": cancelAfter },
    body: JSON.stringify({ generation_prompt: prompt, generation_provider_order: "local" }),
  });
  const created = (await response.json()) as { data: { generation_id: string } };
  expect(response.status, JSON.stringify(created)).toBe(202);
  return created.data.generation_id;
}

describe("a deadline across a SIGKILL restart", () => {
  it("cancels at the deadline, or within a second of the start when it fell while the server was down", async () => {
    const short = await create("5s", "[local:slow=30000] deadline due while down");
    const long = await create("45s", "[local:slow=90000] deadline due after the start");
    const until = Date.now() + 180_000;
    const statusOf = async (id: string) => (await generationRow(id))?.status ?? "";

    await waitUntil(
      async () => (await statusOf(short)) === "processing" && (await statusOf(long)) === "processing",
      until,
      async () => `${await statusOf(short)} ${await statusOf(long)}`,
    );
    await server.crash();
    const killedAt = Date.now();
    await server.start();
    const backAt = Date.now();

    for (const id of [short, long]) {
      await waitUntil(
        async () => ["succeeded", "failed", "canceled"].includes(await statusOf(id)),
        until,
        async () => `${id} ${await statusOf(id)}`,
      );
    }
    const figures: string[] = [`start took ${backAt - killedAt} ms`];
    for (const [id, seconds] of [
      [short, 5],
      [long, 45],
    ] as const) {
      const row = (await generationRow(id))!;
      expect(row).toMatchObject({ status: "canceled", error_code: "ERR4006" });
      const deadline = row.deadline_at.getTime();
      const canceled = row.completed_at!.getTime();
      expect(deadline - row.created_at.getTime()).toBe(seconds * 1000);
      expect(canceled).toBeGreaterThanOrEqual(deadline);
      // Due while nobody ran: as soon as the server is back (it cancels before it serves).
      expect(canceled).toBeLessThanOrEqual(Math.max(deadline, backAt) + 1_000);
      figures.push(
        `${seconds} s deadline: canceled ${canceled - row.created_at.getTime()} ms after creation (lateness ${canceled - deadline} ms)`,
      );
      if (deadline > backAt) expect(canceled - row.created_at.getTime()).toBeLessThanOrEqual(seconds * 1000 + 1_000);

      const ledger = await query<{ type: string; amount: string }>(
        server,
        `SELECT type::text, amount::text FROM ledger_entry WHERE generation_id = $1 ORDER BY created_at`,
        [id],
      );
      expect(ledger?.map((entry) => entry.type)).toEqual(["reserve", "refund"]);
      expect(ledger?.[0]?.amount).toBe(ledger?.[1]?.amount);

      // One generation.canceled, made once and delivered, saying why.
      await waitUntil(
        async () =>
          receiver
            .deliveries()
            .some((delivery) => delivery.generationId === id && delivery.event === "generation.canceled" && delivery.accepted > 0),
        until,
        () => `deliveries ${JSON.stringify(receiver.deliveries())}`,
      );
      const stored = await query<{ payload: unknown }>(server, `SELECT payload FROM webhook_delivery WHERE event_key = $1`, [
        `generation.canceled:${id}`,
      ]);
      expect(stored).toHaveLength(1);
      expect(JSON.stringify(stored![0]!.payload)).toContain('"reason":"deadline"');
      expect(
        receiver.deliveries().filter((delivery) => delivery.generationId === id && delivery.event === "generation.canceled"),
      ).toHaveLength(1);
    }
    // The later deadline is only a test of the start when the server was back before it.
    expect(backAt, "the server was back before the 45 s deadline").toBeLessThan((await generationRow(long))!.deadline_at.getTime());
    console.info(`deadline across a SIGKILL restart: ${figures.join("; ")}`);
    expect(receiver.counts().badSignatures).toBe(0);
  }, 300_000);
});
