import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/base/env";
import { getStorage } from "@/server/storage/get-storage";
import { localDiskStorage } from "@/server/storage/local-disk";
import { s3ConfigFromEnv, S3RequestError, s3Storage, type S3Config } from "@/server/storage/s3";
import { InvalidStorageKeyError, type OutputStorage } from "@/server/storage/storage";

// One contract, both drivers: local disk, and S3 spoken to s3rver on 127.0.0.1.

type S3rver = { run(): Promise<AddressInfo>; close(): Promise<void> };
const S3rverServer = createRequire(import.meta.url)("s3rver") as new (options: Record<string, unknown>) => S3rver;

const BUCKET = "darkroom-test";
let root: string;
let s3rver: S3rver;
let s3Config: S3Config;
const drivers: Record<"local-disk" | "s3", OutputStorage> = {} as never;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "darkroom-drivers-"));
  s3rver = new S3rverServer({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory: path.join(root, "s3rver"),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await s3rver.run();
  s3Config = {
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    bucket: BUCKET,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  drivers["local-disk"] = localDiskStorage(path.join(root, "files"));
  drivers.s3 = s3Storage(s3Config);
});

afterAll(async () => {
  await s3rver.close();
  await rm(root, { recursive: true, force: true });
});

async function readAll(stream: ReadableStream<Uint8Array>) {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe.each(["local-disk", "s3"] as const)("the %s driver", (name) => {
  const storage = () => drivers[name];
  const newKey = (file = "0.png") => `outputs/${randomUUID()}/${randomUUID()}/${file}`;

  it("names itself", () => {
    expect(storage().driver).toBe(name);
  });

  it("puts, gets, overwrites and deletes an object, keeping its content type", async () => {
    const key = newKey();
    const bytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255]);
    await storage().put(key, bytes, "image/png");
    const stored = await storage().get(key);
    expect(stored?.contentType).toBe("image/png");
    expect(Buffer.from(stored!.bytes).equals(Buffer.from(bytes))).toBe(true);

    await storage().put(key, Buffer.from("now webp"), "image/webp");
    const replaced = await storage().get(key);
    expect(replaced?.contentType).toBe("image/webp");
    expect(Buffer.from(replaced!.bytes).toString()).toBe("now webp");

    expect(await storage().delete(key)).toBe(true);
    expect(await storage().get(key)).toBeNull();
    expect(await storage().delete(key)).toBe(false);
  });

  it("heads an object: type and size, null when missing", async () => {
    const key = newKey("clip.mp4");
    await storage().put(key, Buffer.alloc(1234, 7), "video/mp4");
    expect(await storage().head(key)).toEqual({ contentType: "video/mp4", size: 1234, etag: expect.stringMatching(/^"[^"]+"$/) });
    await storage().delete(key);
    expect(await storage().head(key)).toBeNull();
    expect(await storage().head(newKey())).toBeNull();
  });

  it("streams a larger object unchanged", async () => {
    const key = newKey("big.bin");
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    await storage().put(key, bytes, "application/octet-stream");
    const opened = await storage().open(key);
    expect(opened).toMatchObject({ contentType: "application/octet-stream", size: bytes.byteLength });
    expect((await readAll(opened!.body)).equals(bytes)).toBe(true);
    await storage().delete(key);
  });

  it("opens a byte range: only those bytes, with the whole object's size and the head's ETag", async () => {
    const key = newKey("clip.mp4");
    const bytes = randomBytes(200_000 + 3);
    await storage().put(key, bytes, "video/mp4");
    const head = await storage().head(key);
    for (const [start, end] of [
      [0, 0],
      [10, 99],
      [65_530, 131_080],
      [199_000, 200_002],
    ] as const) {
      const opened = await storage().open(key, { start, end });
      expect(opened).toMatchObject({ contentType: "video/mp4", size: bytes.byteLength, etag: head!.etag });
      expect((await readAll(opened!.body)).equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    await storage().delete(key);
  });

  it("lets a stream be canceled unread", async () => {
    const key = newKey();
    await storage().put(key, Buffer.alloc(200_000, 1), "image/png");
    const opened = await storage().open(key);
    await opened!.body.cancel();
    expect(await storage().delete(key)).toBe(true);
  });

  it("opens nothing for a missing key", async () => {
    expect(await storage().open(newKey())).toBeNull();
  });

  it("stores an empty object", async () => {
    const key = newKey("empty.txt");
    await storage().put(key, new Uint8Array(0), "text/plain");
    expect(await storage().head(key)).toMatchObject({ contentType: "text/plain", size: 0 });
    expect((await storage().get(key))?.bytes.byteLength).toBe(0);
    await storage().delete(key);
  });

  it.each(["../escape.png", "/etc/passwd", "outputs/../../escape", "outputs//0.png", "", ".hidden", "outputs/a b.png"])(
    "rejects the key %j",
    async (key) => {
      await expect(storage().put(key, Buffer.from("x"), "text/plain")).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage().get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage().head(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage().open(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage().delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    },
  );

  it("rejects a content type that is not one printable header value", async () => {
    await expect(storage().put(newKey(), Buffer.from("x"), "image/png\r\nx-evil: 1")).rejects.toThrow(/content type/);
  });

  it("probes with a round trip", async () => {
    expect(await storage().probe()).toEqual({ healthy: true, latency_ms: expect.any(Number), driver: name });
  });
});

describe("the local-disk driver's type sidecars", () => {
  const folderOf = (key: string) => path.join(root, "files", ...key.split("/").slice(0, -1));

  it("writes none when the put made the folder and the extension names the type", async () => {
    const storage = drivers["local-disk"];
    const key = `outputs/${randomUUID()}/${randomUUID()}/1-0.png`;
    await storage.put(key, Buffer.from("png bytes"), "image/png");
    expect(await readdir(folderOf(key))).toEqual(["1-0.png"]);
    expect(await storage.head(key)).toMatchObject({ contentType: "image/png", size: 9 });
    expect((await storage.get(key))?.contentType).toBe("image/png");
  });

  it("writes one for a type the extension does not name, and for a put into a folder that already existed", async () => {
    const storage = drivers["local-disk"];
    const folder = `outputs/${randomUUID()}/${randomUUID()}`;
    await storage.put(`${folder}/0.png`, Buffer.from("not a png"), "application/octet-stream");
    await storage.put(`${folder}/1.webp`, Buffer.from("webp"), "image/webp");
    expect((await readdir(folderOf(`${folder}/0.png`))).sort()).toEqual([".0.png.content-type", ".1.webp.content-type", "0.png", "1.webp"]);
    expect((await storage.get(`${folder}/0.png`))?.contentType).toBe("application/octet-stream");
    // Put again with the type its extension names: the earlier sidecar must not win.
    await storage.put(`${folder}/0.png`, Buffer.from("a png now"), "image/png");
    expect((await storage.get(`${folder}/0.png`))?.contentType).toBe("image/png");
    expect(await storage.delete(`${folder}/0.png`)).toBe(true);
    expect(await storage.delete(`${folder}/1.webp`)).toBe(true);
  });
});

describe("the s3 driver's failures", () => {
  it("leaves nothing behind after a probe", async () => {
    await drivers.s3.probe();
    const bucketDir = path.join(root, "s3rver", BUCKET);
    const leftovers = await readdir(path.join(bucketDir, "probes")).catch(() => []);
    expect(leftovers.filter((entry) => !entry.startsWith("."))).toEqual([]);
  });

  it("is unhealthy, and throws, when the bucket does not exist", async () => {
    const missing = s3Storage({ ...s3Config, bucket: "no-such-bucket" });
    expect(await missing.probe()).toMatchObject({ healthy: false, driver: "s3" });
    const error = await missing.get("outputs/a/b/0.png").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3RequestError);
    expect(error).toMatchObject({ status: 404, code: "NoSuchBucket" });
  });

  // s3rver checks the access key id but not the SigV4 signature itself.
  it("is unhealthy with an unknown access key", async () => {
    const wrong = s3Storage({ ...s3Config, accessKeyId: "NOT-A-KEY" });
    expect(await wrong.probe()).toMatchObject({ healthy: false, driver: "s3" });
    await expect(wrong.put("outputs/a/b/0.png", Buffer.from("x"), "image/png")).rejects.toMatchObject({
      status: 403,
      code: "InvalidAccessKeyId",
    });
  });

  it("is unhealthy when nothing listens", async () => {
    const nowhere = s3Storage({ ...s3Config, endpoint: "http://127.0.0.1:1" });
    expect(await nowhere.probe()).toMatchObject({ healthy: false, driver: "s3" });
  });
});

describe("driver selection from the environment", () => {
  const names = ["S3_ENDPOINT", "S3_REGION", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_FORCE_PATH_STYLE"] as const;
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  const globals = globalThis as unknown as { darkroomStorage?: OutputStorage };

  function withEnv(values: Partial<Record<(typeof names)[number], string>>, run: () => void | Promise<void>) {
    return async () => {
      for (const n of names) delete process.env[n];
      Object.assign(process.env, values);
      resetEnvCache();
      delete globals.darkroomStorage;
      try {
        await run();
      } finally {
        for (const n of names) {
          if (saved[n] === undefined) delete process.env[n];
          else process.env[n] = saved[n];
        }
        resetEnvCache();
        delete globals.darkroomStorage;
      }
    };
  }

  it(
    "uses local disk without S3_BUCKET",
    withEnv({}, () => {
      expect(getStorage().driver).toBe("local-disk");
    }),
  );

  it(
    "uses S3 with S3_BUCKET, path-style by default with an endpoint",
    withEnv({ S3_BUCKET: BUCKET, S3_ENDPOINT: "http://127.0.0.1:9000", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" }, () => {
      expect(getStorage().driver).toBe("s3");
      expect(s3ConfigFromEnv()).toEqual({
        endpoint: "http://127.0.0.1:9000",
        region: "us-east-1",
        bucket: BUCKET,
        accessKeyId: "k",
        secretAccessKey: "s",
        forcePathStyle: true,
      });
    }),
  );

  it(
    "talks to the configured store end to end",
    withEnv({ S3_BUCKET: BUCKET, S3_ENDPOINT: "", S3_ACCESS_KEY_ID: "S3RVER", S3_SECRET_ACCESS_KEY: "S3RVER" }, async () => {
      process.env.S3_ENDPOINT = s3Config.endpoint;
      resetEnvCache();
      expect(await getStorage().probe()).toMatchObject({ healthy: true, driver: "s3" });
    }),
  );

  it(
    "is virtual-hosted against AWS without an endpoint, unless told otherwise",
    withEnv({ S3_BUCKET: BUCKET, S3_REGION: "eu-west-1", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" }, () => {
      expect(s3ConfigFromEnv()).toMatchObject({ endpoint: undefined, region: "eu-west-1", forcePathStyle: false });
      process.env.S3_FORCE_PATH_STYLE = "1";
      resetEnvCache();
      expect(s3ConfigFromEnv().forcePathStyle).toBe(true);
    }),
  );

  it(
    "refuses S3_BUCKET without credentials",
    withEnv({ S3_BUCKET: BUCKET }, () => {
      expect(() => getStorage()).toThrow(/S3_ACCESS_KEY_ID/);
    }),
  );
});
