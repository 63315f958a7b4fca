import pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import type { OwnServer } from "@/tests/support/own-server";
import type { WebhookReceiver } from "./webhook-receiver";

// What the restart drills (R3, R6) do to a Darkroom of their own (tests/support/own-server.ts):
// create generations as a careful client does (an Idempotency-Key, retried through refusals and
// outages), read its database directly (the server may be down; reads must not spend its rate
// limit), and check the money of every generation afterwards.

export const TERMINAL = ["succeeded", "failed", "canceled"];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the client met on the way: refusals and outages it retried through. */
export type ClientStats = { networkErrors: number; capRefusals: number; inProgressRetries: number; serverErrors: number; replays: number };

export const clientStats = (): ClientStats => ({ networkErrors: 0, capRefusals: 0, inProgressRetries: 0, serverErrors: 0, replays: 0 });

async function call(server: OwnServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.demoKey()}`, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json().catch(() => ({}))) as { data?: Record<string, unknown>; error?: { code?: string } },
  };
}

/**
 * POST /v1/generate/image/darkroom/lumen-image under one Idempotency-Key until it is accepted: a
 * refusal by the in-flight cap or the rate limit (429), a claim still in progress (ERR2016), a 5xx
 * or no answer at all (the server is down) are retried with the same key, so a create that did
 * commit before a crash comes back as its replay and is never made twice.
 */
export async function createGeneration(
  server: OwnServer,
  prompt: string,
  idempotencyKey: string,
  stats: ClientStats,
  deadline: number,
): Promise<string> {
  while (Date.now() < deadline) {
    let answer: Awaited<ReturnType<typeof call>>;
    try {
      answer = await call(
        server,
        "POST",
        "/v1/generate/image/darkroom/lumen-image",
        { generation_prompt: prompt },
        { "idempotency-key": idempotencyKey },
      );
    } catch {
      stats.networkErrors += 1;
      await sleep(250);
      continue;
    }
    if (answer.status === 202 && !answer.body.data) {
      // The answer was cut off by a kill: the same key brings it back as a replay.
      stats.networkErrors += 1;
      await sleep(250);
      continue;
    }
    if (answer.status === 202) {
      if (answer.headers.get("idempotency-replayed") === "true") stats.replays += 1;
      return answer.body.data!.generation_id as string;
    }
    if (answer.status === 429) {
      stats.capRefusals += 1;
      await sleep(Math.min(1000, Number(answer.headers.get("retry-after") ?? 1) * 1000));
    } else if (answer.body.error?.code === "ERR2016") {
      stats.inProgressRetries += 1;
      await sleep(1000);
    } else if (answer.status >= 500) {
      stats.serverErrors += 1;
      await sleep(250);
    } else {
      throw new Error(`create ${idempotencyKey} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
  }
  throw new Error(`create ${idempotencyKey} not accepted before the deadline`);
}

/** Cancels as a client would; a generation that already ended (ERR1010) stays as it is. Retried through outages. */
export async function cancelGeneration(server: OwnServer, generationId: string, stats: ClientStats, deadline: number): Promise<boolean> {
  while (Date.now() < deadline) {
    try {
      const answer = await call(server, "POST", `/v1/content/generation/cancel/${generationId}`);
      if (answer.status === 200) return true;
      if (answer.body.error?.code === "ERR1010") return false;
      if (answer.status < 500 && answer.status !== 429)
        throw new Error(`cancel ${generationId} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    } catch (error) {
      if (error instanceof Error && error.message.startsWith("cancel ")) throw error;
      stats.networkErrors += 1;
    }
    await sleep(250);
  }
  throw new Error(`cancel ${generationId} not answered before the deadline`);
}

/** A query on the server's embedded PostgreSQL; null while it is down (it is restarted with the server). */
export async function query<T extends pg.QueryResultRow>(server: OwnServer, sql: string, params: unknown[] = []): Promise<T[] | null> {
  let client: pg.Client | null = null;
  try {
    client = new pg.Client({ connectionString: server.databaseUrl(), connectionTimeoutMillis: 5000 });
    await client.connect();
    return (await client.query<T>(sql, params)).rows;
  } catch {
    return null;
  } finally {
    await client?.end().catch(() => undefined);
  }
}

/** Polls `check` every half second until it returns true; fails with `describe()` at the deadline. */
export async function waitUntil(check: () => Promise<boolean>, deadline: number, describe: () => string | Promise<string>) {
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(500);
  }
  expect.fail(`not reached before the deadline: ${await describe()}`);
}

export async function statusCounts(server: OwnServer, accountId: string): Promise<Record<string, number> | null> {
  const rows = await query<{ status: string; count: number }>(
    server,
    `SELECT status::text, count(*)::int AS count FROM generation WHERE account_id = $1 GROUP BY status`,
    [accountId],
  );
  return rows && Object.fromEntries(rows.map((row) => [row.status, row.count]));
}

/**
 * The receiver and the server started, the demo account on Enterprise (60 images in flight, 200
 * creates a minute, so the drill's clients are not paced to a crawl). Returns the account id.
 */
async function startDrill(server: OwnServer, receiver: WebhookReceiver): Promise<string> {
  await receiver.start();
  await server.start();
  const accountId = server.demoAccountId();
  const plan = await server.cli(["account:plan", "--account", accountId, "--plan", "enterprise"]);
  expect(plan.code, JSON.stringify(plan.body)).toBe(0);
  return accountId;
}

/** Stops the server (its data removed) and the receiver. */
async function stopDrill(server: OwnServer, receiver: WebhookReceiver) {
  await server.dispose();
  await receiver.close();
}

/** Registers the receiver's endpoint `name` through the operator CLI, as docs/webhooks.md shows, and trusts its secret. */
async function registerEndpoint(server: OwnServer, accountId: string, receiver: WebhookReceiver, name: string): Promise<string> {
  const created = await server.cli([
    "webhook:create",
    "--account",
    accountId,
    "--url",
    receiver.url(name),
    "--description",
    `drill ${name}`,
  ]);
  expect(created.code, JSON.stringify(created.body)).toBe(0);
  receiver.trust(name, created.body.secret as string);
  return created.body.webhook_id as string;
}

/**
 * A drill's frame: before its tests, the receiver and the server started (startDrill) and the
 * receiver's endpoints `endpoints` registered, two CLI processes at a time (more at once starve each
 * other on a small machine); after them, both stopped. `accountId()` is the drill's account.
 */
export function ownServerDrill(
  server: OwnServer,
  receiver: WebhookReceiver,
  endpoints: readonly string[],
  startTimeoutMs: number,
): { accountId: () => string } {
  let accountId = "";
  beforeAll(async () => {
    accountId = await startDrill(server, receiver);
    for (let index = 0; index < endpoints.length; index += 2)
      await Promise.all(endpoints.slice(index, index + 2).map((name) => registerEndpoint(server, accountId, receiver, name)));
  }, startTimeoutMs);
  afterAll(() => stopDrill(server, receiver), 60_000);
  return { accountId: () => accountId };
}

export type Settlement = { id: string; status: string; reserves: number; charges: number; refunds: number };

/**
 * Every generation of the account with its ledger entries by type, and the account's balance
 * against its ledger: the balance must equal adds − reserves + refunds (a charge confirms a
 * reservation without moving the balance) and the newest entry's balance_after.
 */
export async function settlementOf(server: OwnServer, accountId: string) {
  const generations = await query<Settlement>(
    server,
    `SELECT g.id, g.status::text AS status,
            count(l.id) FILTER (WHERE l.type = 'reserve')::int AS reserves,
            count(l.id) FILTER (WHERE l.type = 'charge')::int  AS charges,
            count(l.id) FILTER (WHERE l.type = 'refund')::int  AS refunds
       FROM generation g LEFT JOIN ledger_entry l ON l.generation_id = g.id
      WHERE g.account_id = $1 GROUP BY g.id`,
    [accountId],
  );
  const [balance] =
    (await query<{ balance: string; from_ledger: string; last_after: string }>(
      server,
      `SELECT a.credit_balance::text AS balance,
              (SELECT coalesce(sum(CASE type WHEN 'add' THEN amount WHEN 'refund' THEN amount WHEN 'reserve' THEN -amount ELSE 0 END), 0) FROM ledger_entry WHERE account_id = a.id)::text AS from_ledger,
              (SELECT balance_after FROM ledger_entry WHERE account_id = a.id ORDER BY created_at DESC, id DESC LIMIT 1)::text AS last_after
         FROM account a WHERE a.id = $1`,
      [accountId],
    )) ?? [];
  if (!generations || !balance) throw new Error("the database did not answer");
  return { generations, balance };
}

/** The promise on money: one reserve each; succeeded → one charge and no refund; failed or canceled → one refund and no charge. */
export function expectSettledOnce(generations: Settlement[]) {
  for (const row of generations) {
    expect(TERMINAL, `${row.id} is ${row.status}`).toContain(row.status);
    expect(row.reserves, `${row.id} reserves`).toBe(1);
    expect(
      row.status === "succeeded" ? [row.charges, row.refunds] : [row.refunds, row.charges],
      `${row.id} (${row.status}) [settled, the other]`,
    ).toEqual([1, 0]);
  }
}

/** Deliveries still pending, by event. */
export async function pendingDeliveries(server: OwnServer, accountId: string): Promise<number | null> {
  const rows = await query<{ count: number }>(
    server,
    `SELECT count(*)::int AS count FROM webhook_delivery WHERE account_id = $1 AND status = 'pending'`,
    [accountId],
  );
  return rows ? rows[0]!.count : null;
}
