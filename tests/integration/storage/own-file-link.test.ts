import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/server/base/env";
import { DestinationRefused, InputFileRejected } from "@/server/base/net/fetch-failures";
import { fetchInputFile, type OwnFileReader } from "@/server/base/net/fetch-input-file";
import { localDiskStorage } from "@/server/storage/local-disk";
import { readOwnFileLink } from "@/server/storage/own-file-link";
import { signFileUrl } from "@/server/storage/signed-url";
import type { OutputStorage } from "@/server/storage/storage";

// Input files given as signed links to our own /files/ (playground uploads): read from storage,
// with no request (the app's origin here is a loopback port nothing listens on, which the fetcher
// would refuse anyway); a link with a tampered or expired signature reads nothing; any other URL
// goes through the fetcher's rules as before.

const saved = { AUTH_SECRET: process.env.AUTH_SECRET, APP_URL: process.env.APP_URL };
const APP = "http://127.0.0.1:9";
let root: string;
let storage: OutputStorage;
let ownFiles: OwnFileReader;
const key = "uploads/acc/0b1c2d3e-0000-4000-8000-000000000001.png";
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const inAnHour = () => ({ expiresAt: new Date(Date.now() + 3600_000) });

beforeAll(async () => {
  process.env.AUTH_SECRET = "own-file-link-secret";
  process.env.APP_URL = APP;
  resetEnvCache();
  root = await mkdtemp(path.join(tmpdir(), "darkroom-own-link-"));
  storage = localDiskStorage(path.join(root, "files"));
  await storage.put(key, png, "image/png");
  ownFiles = (url, maxBytes) => readOwnFileLink(url, maxBytes, storage);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvCache();
  await rm(root, { recursive: true, force: true });
});

describe("fetchInputFile with own signed links", () => {
  it("reads a signed link to our own /files/ from storage, no network", async () => {
    const url = signFileUrl(key, inAnHour());
    expect(url.startsWith(`${APP}/files/uploads/`)).toBe(true);
    const file = await fetchInputFile(url, { ownFiles });
    expect(file.contentType).toBe("image/png");
    expect(file.bytes.equals(png)).toBe(true);
  });

  it("refuses a tampered or expired signature, and a link whose file is gone", async () => {
    const url = new URL(signFileUrl(key, inAnHour()));
    const signature = url.searchParams.get("signature")!;
    url.searchParams.set("signature", `${signature[0] === "0" ? "1" : "0"}${signature.slice(1)}`);
    await expect(fetchInputFile(url.href, { ownFiles })).rejects.toMatchObject({ name: "InputFileRejected", reason: "invalid_link" });

    const otherKey = new URL(signFileUrl(key, inAnHour()));
    otherKey.pathname = "/files/uploads/acc/someone-else.png";
    await expect(fetchInputFile(otherKey.href, { ownFiles })).rejects.toBeInstanceOf(InputFileRejected);

    const expired = signFileUrl(key, { expiresAt: new Date(Date.now() - 1000) });
    await expect(fetchInputFile(expired, { ownFiles })).rejects.toMatchObject({ reason: "invalid_link" });

    const goneKey = "uploads/acc/gone.png";
    await storage.put(goneKey, png, "image/png");
    const gone = signFileUrl(goneKey, inAnHour());
    await storage.delete(goneKey);
    await expect(fetchInputFile(gone, { ownFiles })).rejects.toMatchObject({ reason: "http_status", status: 404 });
  });

  it("leaves every other URL to the fetcher's rules: another origin, or our origin outside /files/", async () => {
    const url = signFileUrl(key, inAnHour());
    const otherOrigin = url.replace(APP, "http://localhost:9");
    await expect(fetchInputFile(otherOrigin, { ownFiles })).rejects.toBeInstanceOf(DestinationRefused);
    await expect(fetchInputFile(`${APP}/v1/files/${key}`, { ownFiles })).rejects.toBeInstanceOf(DestinationRefused);
    expect(await readOwnFileLink("not a url", 1024, storage)).toBeNull();
  });

  it("holds an own file to the input cap and to image or video types", async () => {
    await expect(readOwnFileLink(signFileUrl(key, inAnHour()), 4, storage)).rejects.toMatchObject({ name: "ResponseTooLarge" });
    const textKey = "uploads/acc/notes.txt";
    await storage.put(textKey, Buffer.from("hello"), "text/plain");
    await expect(fetchInputFile(signFileUrl(textKey, inAnHour()), { ownFiles })).rejects.toMatchObject({ reason: "content_type" });
  });
});
