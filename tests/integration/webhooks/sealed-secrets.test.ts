import { randomBytes, randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/server/base/account-scope";
import { setRuntimeEnv } from "@/server/base/env";
import { PrismaClient } from "@/server/base/generated/prisma/client";
import type { Resolver } from "@/server/base/net/resolve-and-check";
import { recreateDatabase } from "@/server/start/database";
import { applyMigrations } from "@/server/start/migrations";
import { currentKey } from "@/server/base/secrets/encryption-keys";
import { createWebhookEndpoint } from "@/server/webhooks/create-endpoint";
import { openEndpointSecret } from "@/server/webhooks/endpoint-secret";
import { resealWebhookSecrets } from "@/server/webhooks/reseal-secrets";
import { rollWebhookSecret } from "@/server/webhooks/roll-secret";
import { cli as runCli } from "@/tests/support/cli";

// Webhook signing secrets are sealed at rest. This suite has a database of its own: rotating the
// key re-seals every row, which must not touch the endpoints the running test app signs with.

const publicResolver: Resolver = async () => [{ address: "93.184.215.14", family: 4 }];
const savedKey = process.env.ENCRYPTION_KEY ?? "";
let url = "";
let db: PrismaClient;

beforeAll(async () => {
  url = await recreateDatabase(process.env.DATABASE_URL!, `darkroom_sealing_${randomUUID().slice(0, 8)}`);
  await applyMigrations(url);
  db = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 4 }) });
}, 120_000);

afterAll(async () => {
  setRuntimeEnv("ENCRYPTION_KEY", savedKey);
  setRuntimeEnv("ENCRYPTION_KEYS_PREVIOUS", "");
  await db.$disconnect();
});

async function newAccount() {
  return db.account.create({ data: { name: "Sealing", email: `sealing-${randomUUID()}@test.local` } });
}

async function newEndpoint(accountId: string) {
  return db.$transaction((tx) =>
    createWebhookEndpoint(tx, {
      accountId,
      url: "https://hooks.example.com/sealed",
      actor: "system",
      network: { resolver: publicResolver },
    }),
  );
}

/** Every text, varchar and JSON column of every table in the schema, searched for `needle`. */
async function columnsContaining(needle: string): Promise<string[]> {
  const columns = await db.$queryRaw<Array<{ table_name: string; column_name: string }>>`
    SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'ARRAY')`;
  const hits: string[] = [];
  for (const { table_name, column_name } of columns) {
    const [row] = await db.$queryRawUnsafe<Array<{ found: number }>>(
      `SELECT count(*)::int AS found FROM "${table_name}" WHERE "${column_name}"::text LIKE '%' || $1 || '%'`,
      needle,
    );
    if (row && row.found > 0) hits.push(`${table_name}.${column_name}`);
  }
  return hits;
}

/** The operator CLI against this suite's own database. */
const cli = (args: string[], env: Record<string, string>) => runCli(args, { DATABASE_URL: url, ...env });

describe("webhook secrets at rest", () => {
  it("no text column of any table holds a secret in plain text, after creating and rolling", async () => {
    const account = await newAccount();
    const created = await Promise.all([newEndpoint(account.id), newEndpoint(account.id), newEndpoint(account.id)]);
    const rolled = await db.$transaction((tx) => rollWebhookSecret(tx, OPERATOR, { webhookId: created[0]!.webhook_id, actor: "system" }));
    for (const secret of [...created.map((endpoint) => endpoint.secret), rolled.secret]) {
      expect(secret).toMatch(/^whsec_/);
      expect(await columnsContaining(secret)).toEqual([]);
      // Nor its body without the prefix.
      expect(await columnsContaining(secret.slice("whsec_".length))).toEqual([]);
    }
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: created[1]!.webhook_id } });
    expect(row.secretKeyId).toBe(currentKey().id);
    expect(openEndpointSecret(row)).toBe(created[1]!.secret);
    expect(openEndpointSecret(await db.webhookEndpoint.findUniqueOrThrow({ where: { id: rolled.webhook_id } }))).toBe(rolled.secret);
  });

  it("seals a plain-text row left from before sealing, at boot", async () => {
    const account = await newAccount();
    const id = randomUUID();
    const legacy = `whsec_${randomBytes(32).toString("base64url")}`;
    await db.webhookEndpoint.create({
      data: {
        id,
        accountId: account.id,
        url: "https://hooks.example.com/legacy",
        events: ["webhook.test"],
        secret: legacy,
        secretKeyId: null,
      },
    });
    expect(await columnsContaining(legacy)).toEqual(["webhook_endpoint.secret"]);

    expect((await resealWebhookSecrets(db, { plainTextOnly: true })).resealed).toBeGreaterThanOrEqual(1);
    expect(await columnsContaining(legacy)).toEqual([]);
    expect(openEndpointSecret(await db.webhookEndpoint.findUniqueOrThrow({ where: { id } }))).toBe(legacy);
  });

  it("secrets:rotate-key re-seals every row under the new key; the old key can then be dropped", async () => {
    const account = await newAccount();
    const endpoint = await newEndpoint(account.id);
    const oldKey = process.env.ENCRYPTION_KEY!;
    const newKey = randomBytes(32).toString("hex");

    const rotated = await cli(["secrets:rotate-key"], { ENCRYPTION_KEY: newKey, ENCRYPTION_KEYS_PREVIOUS: oldKey });
    expect(rotated.code).toBe(0);
    expect(rotated.body.resealed).toBe(await db.webhookEndpoint.count());

    setRuntimeEnv("ENCRYPTION_KEY", newKey);
    setRuntimeEnv("ENCRYPTION_KEYS_PREVIOUS", "");
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.webhook_id } });
    expect(row.secretKeyId).toBe(rotated.body.key_id);
    expect(row.secretKeyId).toBe(currentKey().id);
    expect(openEndpointSecret(row)).toBe(endpoint.secret);
    // Nothing is left under the old key.
    expect(await db.webhookEndpoint.count({ where: { NOT: { secretKeyId: currentKey().id } } })).toBe(0);

    // A second run has nothing to do.
    expect((await cli(["secrets:rotate-key"], { ENCRYPTION_KEY: newKey })).body.resealed).toBe(0);
  });
});
