import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, disconnectDb } from "@/server/base/db";
import { deleteGeneration, getGeneration } from "@/server/edge/http/operations/generations";
import { s3Storage, type S3Storage } from "@/server/storage/s3";
import { destinationStorage } from "@/server/storage/destinations/destination-storage";
import { parseDestination, API_FIELDS } from "@/server/storage/destinations/parse-destination";
import { listModels, listProviders } from "@/server/catalog";
import { cli } from "@/tests/support/cli";
import { createCaller } from "@/tests/support/dashboard-caller";
import { accountWithKey, addTeamMember } from "@/tests/support/fixtures";
import { balanceOf, createImage, waitForStatus } from "@/tests/support/generations";
import { callOperation, expectSuccess } from "@/tests/support/http";
import { apiErrorOf } from "@/tests/support/trpc-api-error";
import { until } from "@/tests/support/until";

// An account's own bucket (s3rver, a real S3 protocol server on 127.0.0.1): set after a real test
// write, every output written there under the prefix, links that lead to it, delete removing the
// objects, a refused write failing the generation loudly (or kept with us when the fallback says
// so), and the secret never in clear.

type S3rver = { run(): Promise<AddressInfo>; close(): Promise<void> };
const S3rverServer = createRequire(import.meta.url)("s3rver") as new (options: Record<string, unknown>) => S3rver;

const BUCKET = "customer-outputs";
// s3rver checks the access key id only: any secret signs, so this one is ours to look for.
const SECRET = `dest-secret-${randomUUID()}`;
let root: string;
let s3rver: S3rver;
let endpoint: string;
let bucket: S3Storage;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "darkroom-destination-"));
  s3rver = new S3rverServer({ address: "127.0.0.1", port: 0, silent: true, directory: root, configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  bucket = s3Storage({
    endpoint,
    region: "us-east-1",
    bucket: BUCKET,
    accessKeyId: "S3RVER",
    secretAccessKey: SECRET,
    forcePathStyle: true,
  });
});

afterAll(async () => {
  await s3rver.close();
  await rm(root, { recursive: true, force: true });
  await disconnectDb();
});

const as = (userId: string) => createCaller({ userId });

const destination = (overrides: Record<string, unknown> = {}) => ({
  endpoint,
  region: "us-east-1",
  bucket: BUCKET,
  prefix: "darkroom/{date}",
  accessKeyId: "S3RVER",
  secretAccessKey: SECRET,
  pathStyle: true,
  linkTtl: "15m",
  ...overrides,
});

async function accountWithDestination(overrides: Record<string, unknown> = {}) {
  const account = await accountWithKey({ plan: "pro" });
  const saved = await as(account.userId).storage.setDestination({ accountId: account.accountId, ...destination(overrides) });
  return { ...account, saved };
}

/** The store stops taking the saved key (s3rver checks the access key id, not the signature's secret). */
async function revokeCredential(accountId: string) {
  await db.storageDestination.update({ where: { accountId }, data: { accessKeyId: "REVOKED-KEY" } });
}

describe("the destination", () => {
  it("is saved by the primary owner after a real test write, shown without its secret, which is sealed at rest", async () => {
    const { accountId, userId, saved } = await accountWithDestination();
    expect(saved).toMatchObject({
      endpoint,
      bucket: BUCKET,
      prefix: "darkroom/{date}",
      access_key_id: "…RVER",
      links: { kind: "presigned", ttl_seconds: 900 },
      fallback: "fail",
    });
    expect(JSON.stringify(saved)).not.toContain(SECRET + '"');
    const row = await db.storageDestination.findUniqueOrThrow({ where: { accountId } });
    expect(row.secretAccessKey).not.toBe(SECRET);
    expect(row.secretAccessKey).not.toContain(SECRET);
    expect(await as(userId).storage.destination({ accountId })).toEqual(saved);
    const member = await addTeamMember(accountId, "member");
    expect(await as(member).storage.destination({ accountId })).toEqual(saved);
    expect((await apiErrorOf(as(member).storage.setDestination({ accountId, ...destination() }))).code).toBe("ERR1003");
    expect(await db.activityEvent.count({ where: { accountId, action: "storage.destination_set" } })).toBe(1);
  });

  it("never has its secret in clear: not in any answer, column or line of the server's log", async () => {
    const { accountId, key } = await accountWithDestination();
    const created = expectSuccess(await createImage(key, { generation_prompt: "a secret-free output" }), 202);
    await waitForStatus(key, created.generation_id);
    const rows = await db.$queryRawUnsafe<Array<{ hits: bigint }>>(
      `SELECT count(*) AS hits FROM storage_destination WHERE row_to_json(storage_destination)::text LIKE '%' || $1 || '%'`,
      SECRET,
    );
    expect(Number(rows[0]?.hits)).toBe(0);
    const generations = await db.$queryRawUnsafe<Array<{ hits: bigint }>>(
      `SELECT count(*) AS hits FROM generation WHERE account_id = $2::uuid AND row_to_json(generation)::text LIKE '%' || $1 || '%'`,
      SECRET,
      accountId,
    );
    expect(Number(generations[0]?.hits)).toBe(0);
    expect(readFileSync(process.env.APP_SERVER_LOG!, "utf8")).not.toContain(SECRET);
  });

  it("names what failed: a missing bucket, refused credentials, an unreachable endpoint, bad values", async () => {
    const { accountId, userId } = await accountWithKey({ plan: "pro" });
    const refused = async (overrides: Record<string, unknown>) =>
      apiErrorOf(as(userId).storage.setDestination({ accountId, ...destination(overrides) }));
    const missing = await refused({ bucket: "no-such-bucket" });
    expect(missing).toMatchObject({ code: "ERR1001", details: { fields: [{ field: "bucket", message: "bucket_missing" }] } });
    expect(missing.message).toMatch(/does not exist/);
    const forbidden = await refused({ accessKeyId: "NOT-A-KEY" });
    expect(forbidden.details.fields).toEqual([{ field: "access_key_id", message: "forbidden" }]);
    const unreachable = await refused({ endpoint: "http://127.0.0.1:9" });
    expect(unreachable.details.fields).toEqual([{ field: "endpoint", message: "unreachable" }]);
    for (const [overrides, field] of [
      [{ bucket: "Bad_Bucket" }, "bucket"],
      [{ linkTtl: "9d" }, "link_ttl"],
      [{ prefix: "../up" }, "prefix"],
      [{ fallback: "sometimes" }, "fallback"],
      [{ endpoint: "ftp://example.com" }, "endpoint"],
      [{ publicBaseUrl: "https://cdn.example.com" }, "public_base_url"],
    ] as const) {
      const body = await refused(overrides);
      expect(body.code, JSON.stringify(overrides)).toBe("ERR1001");
      expect((body.details.fields as Array<{ field: string }>)[0]?.field).toBe(field);
    }
    expect(await db.storageDestination.count({ where: { accountId } })).toBe(0);
  });

  it("refuses loopback and private endpoints where STORAGE_ALLOW_LOOPBACK is off (production)", () => {
    for (const address of ["http://127.0.0.1:9000", "https://10.0.0.5", "https://169.254.169.254", "https://localhost"]) {
      expect(
        () => parseDestination({ ...destination({ endpoint: address }) } as never, API_FIELDS, { allowLoopback: false }),
        address,
      ).toThrow(/endpoint/);
    }
  });
});

describe("outputs in the account's bucket", () => {
  it("are written under the prefix; the record's link leads there; delete removes the object", async () => {
    const { key } = await accountWithDestination();
    const created = expectSuccess(await createImage(key, { generation_prompt: "a harbour at dawn" }), 202);
    await waitForStatus(key, created.generation_id);
    const readFrom = Date.now();
    const record = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    const readUntil = Date.now();
    expect(record.generation_status).toBe("succeeded");
    expect(record.generation_output_location).toEqual(["customer"]);
    const row = await db.generation.findUniqueOrThrow({ where: { id: created.generation_id } });
    const [objectKey] = row.outputKeys;
    expect(objectKey).toBe(`darkroom/${new Date().toISOString().slice(0, 10)}/${created.generation_id}/1-0.png`);
    const stored = await bucket.get(objectKey!);
    expect(stored?.contentType).toBe("image/png");

    const link = record.generation_output_file[0]!;
    const redirect = await fetch(link, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get("location")!;
    expect(location.startsWith(`${endpoint}/${BUCKET}/darkroom/`)).toBe(true);
    expect(location).toContain("X-Amz-Signature=");
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(stored!.bytes))).toBe(true);
    // The link lives the destination's lifetime (15 min) from when it was issued.
    const expires = Number(new URL(link).searchParams.get("expires"));
    expect(expires).toBeGreaterThanOrEqual(Math.floor(readFrom / 1000) + 900);
    expect(expires).toBeLessThanOrEqual(Math.ceil(readUntil / 1000) + 900);

    const deleted = expectSuccess(await callOperation(deleteGeneration, { key, params: { generation_id: created.generation_id } }));
    expect(deleted.files_deleted).toBe(1);
    expect(await bucket.head(objectKey!)).toBeNull();
    expect((await fetch(link, { redirect: "manual" })).status).toBe(404);
  });

  it("a link lives the create's lifetime, then it is refused", async () => {
    const { key } = await accountWithDestination();
    const created = expectSuccess(await createImage(key, { generation_prompt: "a brief link", generation_output_link_ttl: "2s" }), 202);
    const record = await waitForStatus(key, created.generation_id);
    const [link] = record.generation_output_file;
    expect((await fetch(link!, { redirect: "manual" })).status).toBe(302);
    const expired = await until(
      async () => {
        const answer = await fetch(link!, { redirect: "manual" });
        return answer.status === 400 && answer;
      },
      "the 2-second link refused",
      { timeoutMs: 15_000, everyMs: 250 },
    );
    expect(((await expired.json()) as { error: { code: string } }).error.code).toBe("ERR1001");
  });

  it("a credential the bucket refuses fails the generation with ERR4003 upload_failed, refunded", async () => {
    const { key, accountId } = await accountWithDestination();
    await revokeCredential(accountId);
    const before = await balanceOf(accountId);
    const created = expectSuccess(await createImage(key, { generation_prompt: "a refused upload" }), 202);
    const record = await waitForStatus(key, created.generation_id, ["succeeded", "failed", "canceled"], 60_000);
    expect(record).toMatchObject({ generation_status: "failed", generation_error_code: "ERR4003" });
    expect(record.generation_error).toMatch(/upload_failed/);
    expect(await balanceOf(accountId)).toBe(before);
    const attempts = await db.providerAttempt.findMany({ where: { generationId: created.generation_id } });
    expect(attempts).toHaveLength(1); // no failover: every provider's outputs would go to the same bucket
    expect(await db.notification.count({ where: { accountId, kind: "storage.upload_failed" } })).toBe(1);
    expect(await db.activityEvent.count({ where: { accountId, action: "generation.failed" } })).toBe(1);
  });

  it("with the fallback to Darkroom's storage, a refused write is kept with us and the record says so", async () => {
    const { key, accountId } = await accountWithDestination({ fallback: "darkroom" });
    await revokeCredential(accountId);
    const created = expectSuccess(await createImage(key, { generation_prompt: "a fallback" }), 202);
    const record = await waitForStatus(key, created.generation_id, ["succeeded", "failed", "canceled"], 60_000);
    expect(record.generation_status).toBe("succeeded");
    expect(record.generation_output_location).toEqual(["darkroom"]);
    expect((await fetch(record.generation_output_file[0]!)).status).toBe(200);
    const again = expectSuccess(await callOperation(getGeneration, { key, params: { generation_id: created.generation_id } }));
    expect(again.generation_output_location).toEqual(["darkroom"]);
  });
});

describe("streamed writes", () => {
  it("a 20 MiB object goes up in 8 MiB parts (multipart, each part with its SHA-256) and reads back whole", async () => {
    const storage = destinationStorage({
      endpoint,
      region: "us-east-1",
      bucket: BUCKET,
      pathStyle: true,
      accessKeyId: "S3RVER",
      secretAccessKey: SECRET,
    });
    const total = 20 * 1024 * 1024 + 123;
    const hash = createHash("sha256");
    async function* chunks() {
      for (let sent = 0; sent < total;) {
        const size = Math.min(64 * 1024, total - sent);
        const chunk = Buffer.alloc(size, sent % 251);
        hash.update(chunk);
        sent += size;
        yield chunk;
      }
    }
    const key = `streamed/${randomUUID()}.mp4`;
    await storage.putStream(key, chunks(), "video/mp4");
    const back = await bucket.get(key);
    expect(back?.contentType).toBe("video/mp4");
    expect(back?.bytes.byteLength).toBe(total);
    expect(createHash("sha256").update(back!.bytes).digest("hex")).toBe(hash.digest("hex"));
    expect(await storage.delete(key)).toBe(true);
  });

  it("a refusal mid-upload aborts the multipart upload and leaves no object", async () => {
    const storage = destinationStorage({
      endpoint,
      region: "us-east-1",
      bucket: BUCKET,
      pathStyle: true,
      accessKeyId: "S3RVER",
      secretAccessKey: SECRET,
    });
    const key = `streamed/${randomUUID()}.mp4`;
    async function* failing() {
      yield Buffer.alloc(9 * 1024 * 1024, 1);
      throw new Error("the provider's connection dropped");
    }
    await expect(storage.putStream(key, failing(), "video/mp4")).rejects.toThrow(/connection dropped/);
    expect(await bucket.head(key)).toBeNull();
  });
});

describe("every provider", () => {
  // One image model per provider whose credential the suite configured (each one's fake), run there only.
  const runs = listProviders().flatMap((provider) => {
    const configured = provider.credentialEnv === null || Boolean(process.env[provider.credentialEnv]);
    const model = listModels().find(
      (candidate) => candidate.type === "image" && !candidate.inputFiles?.required && candidate.providers.includes(provider.id),
    );
    return configured && model ? [[provider.id, model.identifier] as const] : [];
  });

  it(`writes its outputs to the account's bucket (${runs.map(([provider]) => provider).join(", ")})`, async () => {
    expect(runs.length).toBeGreaterThanOrEqual(5);
    const { key } = await accountWithDestination({ prefix: "every-provider" });
    const created = await Promise.all(
      runs.map(async ([provider, model]) => {
        const reply = await createImage(
          key,
          { generation_prompt: `a ${provider} lighthouse`, generation_provider_order: provider },
          {},
          model,
        );
        return { provider, id: expectSuccess(reply, 202).generation_id };
      }),
    );
    for (const { provider, id } of created) {
      const record = await waitForStatus(key, id, ["succeeded", "failed", "canceled"], 90_000);
      expect(record.generation_status, `${provider}: ${record.generation_error ?? ""}`).toBe("succeeded");
      expect(record.generation_provider_used).toBe(provider);
      expect(record.generation_output_location.every((location) => location === "customer")).toBe(true);
      const row = await db.generation.findUniqueOrThrow({ where: { id } });
      for (const objectKey of row.outputKeys) {
        expect(objectKey.startsWith(`every-provider/${id}/`)).toBe(true);
        expect(await bucket.head(objectKey), `${provider}: ${objectKey}`).not.toBeNull();
      }
    }
  }, 180_000);
});

describe("the CLI", () => {
  it("sets, tests, shows and removes it; the secret is never printed; bad flags are ERR1001 naming the flag", async () => {
    const { accountId } = await accountWithKey({ plan: "pro" });
    const flags = [
      "--account",
      accountId,
      "--endpoint",
      endpoint,
      "--region",
      "us-east-1",
      "--bucket",
      BUCKET,
      "--access-key-id",
      "S3RVER",
    ];
    const bad = await cli(["storage:set", ...flags, "--secret-access-key", SECRET, "--path-style", "--link-ttl", "forever"]);
    expect(bad.code).toBe(2);
    expect(bad.body.error).toMatchObject({ code: "ERR1001", details: { fields: [{ field: "link-ttl" }] } });
    const set = await cli([
      "storage:set",
      ...flags,
      "--secret-access-key",
      SECRET,
      "--path-style",
      "--prefix",
      `cli-${randomUUID().slice(0, 8)}`,
    ]);
    expect(set.code, JSON.stringify(set.body)).toBe(0);
    expect(set.stdout).not.toContain(`"${SECRET}"`);
    expect(set.body.storage).toMatchObject({ bucket: BUCKET, path_style: true, links: { kind: "presigned", ttl_seconds: 3600 } });
    const tested = await cli(["storage:test", "--account", accountId]);
    expect(tested.code).toBe(0);
    expect(tested.body.test).toMatchObject({ ok: true });
    // The test passed again: the destination's verified time moves, nothing else.
    const { verified_at: verified, updated_at: _updated, ...shown } = (await cli(["storage:show", "--account", accountId])).body.storage;
    const { verified_at: _first, updated_at: _saved, ...stored } = set.body.storage;
    expect(shown).toEqual(stored);
    expect(new Date(verified).getTime()).toBeGreaterThanOrEqual(new Date(set.body.storage.verified_at).getTime());
    expect((await cli(["storage:remove", "--account", accountId])).body).toMatchObject({ removed: true });
    expect((await cli(["storage:show", "--account", accountId])).body.storage).toBeNull();
  });
});
