import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { keyStateAt } from "@/server/keys/key-state";
import { cli } from "@/tests/support/cli";
import { seedRequestLogs } from "@/tests/support/request-logs";

// The operator CLI as operators run it: a separate process, one JSON object on stdout, exit codes
// 0 / 1 / 2, checked against the database it wrote.

const databaseUrl = process.env.DATABASE_URL!;

/** Runs a few at a time: each is a Node process with its own TypeScript transform. */
async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
let accountId = "";

beforeAll(async () => {
  const created = await cli(["account:create", "--email", `cli-${randomUUID()}@example.test`]);
  expect(created.code).toBe(0);
  accountId = created.body.account_id;
}, 120_000);

afterAll(async () => {
  await disconnectDb();
});

describe("cli: accounts and credits", () => {
  it("account:create prints {account_id, user_id} and gives the welcome credit", async () => {
    const address = `CLI-${randomUUID()}@Example.test`;
    const run = await cli([
      "account:create",
      "--email",
      address,
      "--name",
      "Studio",
      "--plan",
      "pro",
      "--region",
      "eu",
      "--credits",
      "12.345",
    ]);
    expect(run.code).toBe(0);
    expect(Object.keys(run.body).sort()).toEqual(["account_id", "user_id"]);
    const account = await db.account.findUniqueOrThrow({ where: { id: run.body.account_id } });
    expect(account).toMatchObject({ name: "Studio", plan: "pro", region: "eu", email: address.toLowerCase() });
    expect(account.creditBalance.toFixed(3)).toBe("13.345");
    expect((await db.user.findUniqueOrThrow({ where: { id: run.body.user_id } })).email).toBe(address.toLowerCase());
    expect(await db.membership.count({ where: { accountId: account.id, userId: run.body.user_id, role: "primary_owner" } })).toBe(1);
    // Logs go to stderr, as JSON lines.
    expect(run.stderr).toContain('"cli: done"');
  }, 60_000);

  it("credits:add prints the new balance with three decimals", async () => {
    const before = await db.account.findUniqueOrThrow({ where: { id: accountId } });
    const run = await cli(["credits:add", "--account", accountId, "--amount", "0.125", "--description", "Goodwill"]);
    expect(run.code).toBe(0);
    const expected = Number((Number(before.creditBalance.toFixed(3)) + 0.125).toFixed(3));
    expect(run.body).toEqual({ account_id: accountId, balance: expected });
    const entry = await db.ledgerEntry.findFirstOrThrow({ where: { accountId, description: "Goodwill" } });
    expect(entry).toMatchObject({ type: "add" });
    expect(entry.sourceKey).toMatch(/^operator:/);
    expect(entry.amount.toFixed(3)).toBe("0.125");
  }, 60_000);

  it("account:plan prints {account_id, plan}", async () => {
    const run = await cli(["account:plan", "--account", accountId, "--plan", "scale"]);
    expect(run.code).toBe(0);
    expect(run.body).toEqual({ account_id: accountId, plan: "scale" });
    expect((await db.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe("scale");
  }, 60_000);
});

describe("cli: keys", () => {
  it("key:create stores the hash, never the key", async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const run = await cli([
      "key:create",
      "--account",
      accountId,
      "--name",
      "CI deploy",
      "--preset",
      "generate",
      "--region",
      "jp",
      "--expires-at",
      expiresAt,
      "--allow-ip",
      "203.0.113.7,10.1.2.3/8,2001:db8::/32",
    ]);
    expect(run.code).toBe(0);
    expect(Object.keys(run.body).sort()).toEqual([
      "apikey_id",
      "apikey_prefix",
      "key",
      "spend_limit",
      "spend_period",
      "spend_resets_at",
      "spend_used",
    ]);
    expect(run.body).toMatchObject({ spend_limit: null, spend_period: null, spend_used: 0, spend_resets_at: null });
    const { apikey_id, key, apikey_prefix } = run.body;
    expect(key).toMatch(/^dkr_[0-9A-Za-z]{40}$/);
    expect(apikey_prefix).toBe(key.slice(0, 9));

    const row = await db.apiKey.findUniqueOrThrow({ where: { id: apikey_id } });
    expect(row).toMatchObject({ accountId, name: "CI deploy", prefix: apikey_prefix, region: "jp", status: "active", hash: sha256(key) });
    expect(row.scopes).toEqual(["generation:write", "generation:read", "library:read"]);
    expect(row.ipAllowlist).toEqual(["203.0.113.7", "10.0.0.0/8", "2001:db8::/32"]);
    expect(row.expiresAt?.toISOString()).toBe(expiresAt);
    // The raw value appears nowhere: not in the key row, not in the activity feed, not in the logs.
    const [keyHits] = await db.$queryRaw<Array<{ hits: bigint }>>`
      SELECT (SELECT count(*) FROM api_key WHERE row_to_json(api_key)::text LIKE ${"%" + key + "%"})
           + (SELECT count(*) FROM activity_event WHERE row_to_json(activity_event)::text LIKE ${"%" + key + "%"}) AS hits`;
    expect(Number(keyHits?.hits)).toBe(0);
    expect(run.stderr).not.toContain(key);
    expect(await db.activityEvent.count({ where: { accountId, action: "api_key.created" } })).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("key:create defaults to Full Access in the account's region; --scopes sets a custom set", async () => {
    const [full, custom] = await Promise.all([
      cli(["key:create", "--account", accountId]),
      cli(["key:create", "--account", accountId, "--name", "custom", "--scopes", "health:read,account:read"]),
    ]);
    expect(full.code).toBe(0);
    expect(custom.code).toBe(0);
    const fullRow = await db.apiKey.findUniqueOrThrow({ where: { id: full.body.apikey_id } });
    expect(fullRow.scopes).toHaveLength(6);
    expect(fullRow.region).toBe("us");
    expect(fullRow.ipAllowlist).toBeNull();
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: custom.body.apikey_id } })).scopes).toEqual(["account:read", "health:read"]);
  }, 60_000);

  it("key:rotate makes a twin key and leaves the old one in its grace period", async () => {
    const created = await cli([
      "key:create",
      "--account",
      accountId,
      "--name",
      "rotating",
      "--preset",
      "read",
      "--allow-ip",
      "198.51.100.0/24",
    ]);
    const oldId = created.body.apikey_id;
    const started = Date.now();
    const run = await cli(["key:rotate", "--key-id", oldId, "--grace-hours", "2"]);
    expect(run.code).toBe(0);
    expect(Object.keys(run.body).sort()).toEqual(["apikey_id", "key", "old_key_valid_until"]);
    expect(run.body.apikey_id).not.toBe(oldId);
    expect(run.body.key).not.toBe(created.body.key);

    const [oldRow, newRow] = await Promise.all([
      db.apiKey.findUniqueOrThrow({ where: { id: oldId } }),
      db.apiKey.findUniqueOrThrow({ where: { id: run.body.apikey_id } }),
    ]);
    expect(newRow).toMatchObject({
      name: "rotating",
      status: "active",
      region: oldRow.region,
      hash: sha256(run.body.key),
      expiresAt: oldRow.expiresAt,
    });
    expect(newRow.scopes).toEqual(oldRow.scopes);
    expect(newRow.ipAllowlist).toEqual(["198.51.100.0/24"]);
    expect(oldRow).toMatchObject({ status: "rotated", replacedById: newRow.id });
    expect(oldRow.graceEndsAt?.toISOString()).toBe(run.body.old_key_valid_until);
    const graceMs = oldRow.graceEndsAt!.getTime() - started;
    expect(graceMs).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(graceMs).toBeLessThanOrEqual(2 * 3_600_000 + 60_000);
    expect(keyStateAt(oldRow)).toEqual({ state: "rotated", acceptsRequests: true });
    expect(keyStateAt(oldRow, new Date(oldRow.graceEndsAt!.getTime() + 1))).toEqual({ state: "rotated", acceptsRequests: false });

    // Only active keys rotate.
    const again = await cli(["key:rotate", "--key-id", oldId]);
    expect(again.code).toBe(2);
    expect(again.body.error.code).toBe("ERR1001");
  }, 90_000);

  it("key:revoke and key:delete", async () => {
    const [a, b] = await Promise.all([
      cli(["key:create", "--account", accountId, "--name", "to revoke"]),
      cli(["key:create", "--account", accountId, "--name", "to delete"]),
    ]);
    await seedRequestLogs([
      {
        accountId,
        apiKeyId: b.body.apikey_id,
        requestId: randomUUID(),
        keyName: "to delete",
        keyPrefix: b.body.apikey_prefix,
        keyStatus: "active",
        method: "GET",
        endpoint: "/v1/status",
        statusCode: 200,
        ipHash: sha256("203.0.113.7"),
      },
    ]);

    const [revoked, deleted] = await Promise.all([
      cli(["key:revoke", "--key-id", a.body.apikey_id]),
      cli(["key:delete", "--key-id", b.body.apikey_id]),
    ]);
    expect(revoked.code).toBe(0);
    expect(revoked.body).toEqual({ apikey_id: a.body.apikey_id, status: "revoked" });
    const revokedRow = await db.apiKey.findUniqueOrThrow({ where: { id: a.body.apikey_id } });
    expect(revokedRow.status).toBe("revoked");
    expect(revokedRow.revokedAt).toBeInstanceOf(Date);
    expect(keyStateAt(revokedRow)).toEqual({ state: "revoked", acceptsRequests: false });

    expect(deleted.code).toBe(0);
    expect(deleted.body).toEqual({ apikey_id: b.body.apikey_id, deleted: true });
    expect(await db.apiKey.findUnique({ where: { id: b.body.apikey_id } })).toBeNull();
    expect(await db.requestLog.count({ where: { apiKeyId: b.body.apikey_id } })).toBe(0);

    const deletedAgain = await cli(["key:delete", "--key-id", b.body.apikey_id]);
    expect(deletedAgain.code).toBe(2);
    expect(deletedAgain.body.error.code).toBe("ERR1006");
  }, 90_000);
});

describe("cli: bad input exits 2 with a JSON error", () => {
  const cases: Array<[string, () => string[], "ERR1001" | "ERR1006"]> = [
    ["no command", () => [], "ERR1001"],
    ["unknown command", () => ["account:destroy", "--account", accountId], "ERR1001"],
    ["unknown flag", () => ["credits:add", "--account", accountId, "--amount", "1", "--force", "yes"], "ERR1001"],
    ["missing required flag", () => ["credits:add", "--account", accountId], "ERR1001"],
    ["flag without a value", () => ["credits:add", "--account", accountId, "--amount"], "ERR1001"],
    ["flag given twice", () => ["credits:add", "--account", accountId, "--amount", "1", "--amount", "2"], "ERR1001"],
    ["stray argument", () => ["credits:add", "extra", "--account", accountId, "--amount", "1"], "ERR1001"],
    ["lone --", () => ["credits:add", "--account", accountId, "--amount", "1", "--"], "ERR1001"],
    ["short flag", () => ["credits:add", "--account", accountId, "--amount", "1", "-a"], "ERR1001"],
    ["empty inline value", () => ["credits:add", "--account", accountId, "--amount="], "ERR1001"],
    ["value starting with a dash, not inline", () => ["credits:add", "--account", accountId, "--amount", "-1"], "ERR1001"],
    ["amount with 4 decimals", () => ["credits:add", "--account", accountId, "--amount", "1.0001"], "ERR1001"],
    ["negative amount", () => ["credits:add", "--account", accountId, "--amount=-1"], "ERR1001"],
    ["zero amount", () => ["credits:add", "--account", accountId, "--amount", "0"], "ERR1001"],
    ["garbage amount", () => ["credits:add", "--account", accountId, "--amount", "1e3"], "ERR1001"],
    ["malformed account id", () => ["credits:add", "--account", "1234", "--amount", "1"], "ERR1001"],
    ["unknown account id", () => ["credits:add", "--account", randomUUID(), "--amount", "1"], "ERR1006"],
    ["invalid e-mail", () => ["account:create", "--email", "nobody"], "ERR1001"],
    ["unknown plan", () => ["account:create", "--email", `x-${randomUUID()}@example.test`, "--plan", "gold"], "ERR1001"],
    ["unknown region", () => ["account:create", "--email", `x-${randomUUID()}@example.test`, "--region", "mars"], "ERR1001"],
    ["zero initial credits", () => ["account:create", "--email", `x-${randomUUID()}@example.test`, "--credits", "0"], "ERR1001"],
    ["unknown plan change", () => ["account:plan", "--account", accountId, "--plan", "gold"], "ERR1001"],
    ["plan change for an unknown account", () => ["account:plan", "--account", randomUUID(), "--plan", "pro"], "ERR1006"],
    ["unknown preset", () => ["key:create", "--account", accountId, "--preset", "admin"], "ERR1001"],
    ["unknown scope", () => ["key:create", "--account", accountId, "--scopes", "generation:read,admin:all"], "ERR1001"],
    ["preset and scopes", () => ["key:create", "--account", accountId, "--preset", "full", "--scopes", "health:read"], "ERR1001"],
    ["name over 100 characters", () => ["key:create", "--account", accountId, "--name", "n".repeat(101)], "ERR1001"],
    ["expiry in the past", () => ["key:create", "--account", accountId, "--expires-at", "2020-01-01T00:00:00Z"], "ERR1001"],
    ["expiry not ISO", () => ["key:create", "--account", accountId, "--expires-at", "next tuesday"], "ERR1001"],
    ["malformed allowlist entry", () => ["key:create", "--account", accountId, "--allow-ip", "10.0.0.1,10.0.0.300"], "ERR1001"],
    [
      "51 allowlist entries",
      () => ["key:create", "--account", accountId, "--allow-ip", Array.from({ length: 51 }, (_, i) => `10.0.${i}.1`).join(",")],
      "ERR1001",
    ],
    ["key for an unknown account", () => ["key:create", "--account", randomUUID()], "ERR1006"],
    ["grace hours out of range", () => ["key:rotate", "--key-id", randomUUID(), "--grace-hours", "169"], "ERR1001"],
    ["grace hours zero", () => ["key:rotate", "--key-id", randomUUID(), "--grace-hours", "0"], "ERR1001"],
    ["grace hours not a number", () => ["key:rotate", "--key-id", randomUUID(), "--grace-hours", "1.5"], "ERR1001"],
    ["rotate an unknown key", () => ["key:rotate", "--key-id", randomUUID()], "ERR1006"],
    ["revoke an unknown key", () => ["key:revoke", "--key-id", randomUUID()], "ERR1006"],
    ["revoke a malformed key id", () => ["key:revoke", "--key-id", "dkr_abc"], "ERR1001"],
    ["delete an unknown key", () => ["key:delete", "--key-id", randomUUID()], "ERR1006"],
  ];

  it("every bad input class", async () => {
    const before = await db.apiKey.count({ where: { accountId } });
    const runs = await inBatches(cases, 4, async ([label, args, code]) => ({ label, code, run: await cli(args()) }));
    for (const { label, code, run } of runs) {
      expect(run.code, label).toBe(2);
      expect(run.body, label).toEqual({
        error: { code, type: expect.any(String), message: expect.any(String), retryable: false, details: expect.any(Object) },
      });
    }
    // None of them wrote anything.
    expect(await db.apiKey.count({ where: { accountId } })).toBe(before);
  }, 300_000);

  it("names the offending argument", async () => {
    const runs = await Promise.all([
      cli(["credits:add", "--account", accountId, "--amount", "1", "--force", "yes"]),
      cli(["credits:add", "--amount", "--account", accountId]),
      cli(["credits:add", "--account", accountId, "--amount", "1", "--amount=2"]),
      cli(["credits:add", "--account", accountId, "stray", "--amount", "1"]),
    ]);
    expect(runs.map((run) => [run.code, run.body.error.message])).toEqual([
      [2, "Unknown flag for credits:add: --force."],
      [2, "--amount needs a value."],
      [2, "--amount is given twice."],
      [2, "Unexpected argument: stray."],
    ]);
    expect(runs[0]?.body.error.details.usage).toContain("npm run cli -- credits:add --account A --amount X [--description D]");
    expect(runs[1]?.body.error.details.fields).toEqual([{ field: "amount", message: "needs a value" }]);
  }, 60_000);

  it("unexpected failures exit 1 with a JSON error", async () => {
    const missing = new URL(databaseUrl);
    missing.pathname = `/darkroom_missing_${randomUUID().replaceAll("-", "")}`;
    const run = await cli(["key:revoke", "--key-id", randomUUID()], { DATABASE_URL: missing.toString() });
    expect(run.code).toBe(1);
    expect(run.body.error).toMatchObject({ code: "ERR5000", type: "internal_error" });
  }, 60_000);
});
