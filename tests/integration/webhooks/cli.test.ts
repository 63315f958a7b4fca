import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { createTestAccount } from "@/tests/support/fixtures";
import { openEndpointSecret } from "@/server/webhooks/endpoint-secret";
import { cli as runCli } from "@/tests/support/cli";

// The four webhook commands as operators run them: a separate process, one JSON object on stdout,
// exit 0 or 2 (bad input), checked against the database.

type Run = { code: number; body: Record<string, any> };

async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const { code, body } = await runCli(args, { LOG_LEVEL: "warn", ...env });
  return { code, body };
}

/** A few at a time: each is a Node process that boots the runtime. */
async function inBatches<T, R>(items: T[], run: (item: T) => Promise<R>, size = 3): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

let accountId = "";

beforeAll(async () => {
  accountId = (await createTestAccount()).accountId;
});

afterAll(async () => {
  await disconnectDb();
});

describe("cli: webhooks", () => {
  it("webhook:create → {webhook_id, secret}; disable, enable, roll-secret", async () => {
    // A loopback target: the test environment sets WEBHOOK_ALLOW_LOOPBACK=1, as a developer would.
    const created = await cli(
      [
        "webhook:create",
        "--account",
        accountId,
        "--url",
        "http://127.0.0.1:9/hooks",
        "--events",
        "generation.completed, credits.low_balance",
      ],
      {
        WEBHOOK_ALLOW_LOOPBACK: "1",
      },
    );
    expect(created.code).toBe(0);
    expect(Object.keys(created.body).sort()).toEqual(["secret", "webhook_id"]);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.webhook_id } });
    expect(row).toMatchObject({
      accountId,
      url: "http://127.0.0.1:9/hooks",
      events: ["generation.completed", "credits.low_balance"],
      enabled: true,
    });
    expect(openEndpointSecret(row)).toBe(created.body.secret);

    const webhookId = created.body.webhook_id as string;
    expect(await cli(["webhook:disable", "--webhook-id", webhookId])).toEqual({ code: 0, body: { webhook_id: webhookId, enabled: false } });
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhookId } })).enabled).toBe(false);
    expect(await cli(["webhook:enable", "--webhook-id", webhookId])).toEqual({ code: 0, body: { webhook_id: webhookId, enabled: true } });
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhookId } })).enabled).toBe(true);

    const rolled = await cli(["webhook:roll-secret", "--webhook-id", webhookId]);
    expect(rolled.code).toBe(0);
    expect(rolled.body).toEqual({ webhook_id: webhookId, secret: expect.stringMatching(/^whsec_/) });
    expect(rolled.body.secret).not.toBe(created.body.secret);
    expect(openEndpointSecret(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: webhookId } }))).toBe(rolled.body.secret);

    const actions = (await db.activityEvent.findMany({ where: { accountId, category: "webhook" }, orderBy: { createdAt: "asc" } })).map(
      (event) => [event.action, event.actor],
    );
    expect(actions).toEqual([
      ["webhook.created", "system"],
      ["webhook.disabled", "system"],
      ["webhook.enabled", "system"],
      ["webhook.secret_rolled", "system"],
    ]);
  }, 60_000);

  it("defaults to the published events: the spend alerts are opt-in", async () => {
    const created = await cli(["webhook:create", "--account", accountId, "--url", "http://127.0.0.1:9/default"], {
      WEBHOOK_ALLOW_LOOPBACK: "1",
    });
    expect(created.code).toBe(0);
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.webhook_id } })).events).toEqual([
      "generation.started",
      "generation.completed",
      "generation.failed",
      "generation.canceled",
      "credits.low_balance",
    ]);
    const optIn = await cli(
      [
        "webhook:create",
        "--account",
        accountId,
        "--url",
        "http://127.0.0.1:9/opt-in",
        "--events",
        "generation.completed,apikey.spend_alert,account.spend_alert",
      ],
      {
        WEBHOOK_ALLOW_LOOPBACK: "1",
      },
    );
    expect(optIn.code).toBe(0);
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id: optIn.body.webhook_id } })).events).toEqual([
      "generation.completed",
      "apikey.spend_alert",
      "account.spend_alert",
    ]);
  }, 60_000);

  const unsafe: Array<[string, string, string]> = [
    ["a private address", "https://10.1.2.3/hooks", "private"],
    ["http", "http://8.8.8.8/hooks", "scheme_not_https"],
    ["a port other than 443", "https://8.8.8.8:8443/hooks", "port_not_443"],
    ["credentials in the URL", "https://user:pw@8.8.8.8/hooks", "credentials_in_url"],
    ["loopback without the development setting", "https://127.0.0.1/hooks", "loopback"],
  ];

  it("refuses unsafe URLs with exit 2 and ERR1001 naming the URL and the reason", async () => {
    const runs = await inBatches(unsafe, ([, url]) =>
      cli(["webhook:create", "--account", accountId, "--url", url], { WEBHOOK_ALLOW_LOOPBACK: "0" }),
    );
    runs.forEach((run, index) => {
      const [label, url, reason] = unsafe[index]!;
      expect(run.code, label).toBe(2);
      expect(run.body.error, label).toMatchObject({ code: "ERR1001", type: "invalid_request", retryable: false, details: { url, reason } });
      expect(run.body.error.message, label).toContain(url);
    });
    expect(await db.webhookEndpoint.count({ where: { accountId, url: { in: unsafe.map(([, url]) => url) } } })).toBe(0);
  }, 90_000);

  it("refuses bad input with exit 2 before touching anything", async () => {
    const cases: Array<[string[], string, string]> = [
      [["webhook:create", "--url", "https://8.8.8.8/hooks"], "ERR1001", "needs --account"],
      [["webhook:create", "--account", accountId], "ERR1001", "needs --url"],
      [["webhook:create", "--account", "not-a-uuid", "--url", "https://8.8.8.8/x"], "ERR1001", "must be a UUID"],
      [
        ["webhook:create", "--account", accountId, "--url", "https://8.8.8.8/x", "--events", "generation.done"],
        "ERR1001",
        "Unknown webhook event",
      ],
      [["webhook:create", "--account", accountId, "--url", "https://8.8.8.8/x", "--events", ","], "ERR1001", "at least one event"],
      [["webhook:create", "--account", randomUUID(), "--url", "https://8.8.8.8/x"], "ERR1006", "Account not found"],
      [["webhook:disable"], "ERR1001", "needs --webhook-id"],
      [["webhook:enable", "--webhook-id", "W"], "ERR1001", "must be a UUID"],
      [["webhook:roll-secret", "--webhook-id", randomUUID()], "ERR1006", "not found"],
      [["webhook:disable", "--webhook-id", randomUUID(), "--force"], "ERR1001", "Unknown flag"],
    ];
    const runs = await inBatches(cases, ([args]) => cli(args));
    runs.forEach((run, index) => {
      const [args, code, text] = cases[index]!;
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.body.error.code, args.join(" ")).toBe(code);
      expect(run.body.error.message, args.join(" ")).toContain(text);
    });
  }, 90_000);
});
