import http from "node:http";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "@/server/base/db";
import { MAX_LIVE_UPLOADS, UPLOAD_MAX_BYTES } from "@/server/playground/uploads/store-upload";
import { baseUrl } from "@/tests/support/http";
import { join, signedInPerson, teamOf, type Person } from "@/tests/support/live-feed";
import { trpc } from "@/tests/support/session";

// POST /api/playground/uploads over real HTTP with real session cookies (issue #46): who may
// upload (signed in, in the account, in a role that may run), what (an image by its bytes, at
// most 10 MB, refused before the rest is sent), how many (the live cap), and the stored file
// served back through its signed link.

type Envelope = {
  status: "success" | "error";
  data?: { url: string; expires_at: string; content_type: string; size_bytes: number };
  error?: { code: string; type: string; message: string; details: Record<string, unknown> };
};

const ownPage = { origin: baseUrl() };

async function upload(
  accountId: string,
  body: Uint8Array | string,
  options: { cookie?: string; type?: string; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${baseUrl()}/api/playground/uploads?account=${encodeURIComponent(accountId)}`, {
    method: "POST",
    headers: {
      ...ownPage,
      "content-type": options.type ?? "image/png",
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    body: typeof body === "string" ? body : Buffer.from(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
}

const png = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
const jpeg = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: "#cc6633" } })
    .jpeg()
    .toBuffer();

async function owner(label = "upload-owner"): Promise<Person & { accountId: string }> {
  const person = await signedInPerson(label);
  return { ...person, accountId: await teamOf(person, "Upload Team") };
}

/**
 * A POST that declares (or streams) more than the cap and never finishes sending: the answer must
 * come while the client still holds the rest. `declared`: a Content-Length; else chunked.
 */
function oversized(accountId: string, cookie: string, declared: boolean): Promise<{ status: number; body: Envelope; sentBytes: number }> {
  const total = UPLOAD_MAX_BYTES + 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const request = http.request(`${baseUrl()}/api/playground/uploads?account=${accountId}`, {
      method: "POST",
      headers: { ...ownPage, cookie, "content-type": "image/png", ...(declared ? { "content-length": String(total) } : {}) },
    });
    request.on("response", (response) => {
      answered = true;
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString("utf8")) as Envelope, sentBytes });
        request.destroy();
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    // Declared: one chunk, then wait. Chunked: up to the cap and a little over, then wait.
    const limit = declared ? chunk.length : UPLOAD_MAX_BYTES + chunk.length;
    const write = () => {
      while (!answered && sentBytes < limit) {
        sentBytes += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", write);
      }
    };
    write();
  });
}

describe("POST /api/playground/uploads: who may upload", () => {
  it("refuses a signed-out request (401), another site's (403) and another account (404), in the envelope", async () => {
    const alice = await owner();
    const signedOut = await upload(alice.accountId, await png());
    expect(signedOut.status).toBe(401);
    expect(signedOut.body).toMatchObject({ status: "error", error: { code: "ERR1002", type: "authentication_failed" } });

    const crossSite = await upload(alice.accountId, await png(), { cookie: alice.cookie, headers: { origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error?.code).toBe("ERR1003");

    const mallory = await owner("upload-mallory");
    const otherAccount = await upload(alice.accountId, await png(), { cookie: mallory.cookie });
    expect(otherAccount.status).toBe(404);
    expect(otherAccount.body.error).toMatchObject({ code: "ERR1006", details: { account_id: alice.accountId } });
    expect(await db.playgroundUpload.count({ where: { accountId: alice.accountId } })).toBe(0);
  });

  it("refuses a member the owner left out of running with Run's own refusal (403), and takes them once let in", async () => {
    const alice = await owner();
    const bob = await signedInPerson("upload-member");
    await join(alice.accountId, bob, "member");
    const set = await trpc(
      "playground.setRunRoles",
      { accountId: alice.accountId, roles: ["owner"] },
      { cookie: alice.cookie, mutation: true },
    );
    expect(set.status).toBe(200);

    const refusedRun = await trpc(
      "playground.run",
      {
        accountId: alice.accountId,
        identifier: "darkroom/lumen-image",
        body: { generation_prompt: "x" },
        idempotencyKey: crypto.randomUUID(),
      },
      { cookie: bob.cookie, mutation: true },
    );
    const refusedUpload = await upload(alice.accountId, await png(), { cookie: bob.cookie });
    expect(refusedUpload.status).toBe(403);
    expect(refusedUpload.body.error).toMatchObject({ code: "ERR1003", details: { role: "member" } });
    expect(refusedUpload.body.error?.message).toBe(refusedRun.error?.message);
    expect(refusedUpload.body.error?.message).toMatch(/your role is member/);

    await trpc(
      "playground.setRunRoles",
      { accountId: alice.accountId, roles: ["owner", "member"] },
      { cookie: alice.cookie, mutation: true },
    );
    expect((await upload(alice.accountId, await png(), { cookie: bob.cookie })).status).toBe(201);
  });

  it("answers other methods with 405 in the envelope", async () => {
    const response = await fetch(`${baseUrl()}/api/playground/uploads`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(((await response.json()) as Envelope).error?.code).toBe("ERR1008");
  });
});

describe("POST /api/playground/uploads: what may be uploaded", () => {
  it("refuses a body over 10 MB with 413 before the rest is sent, declared or chunked", async () => {
    const alice = await owner();
    const declared = await oversized(alice.accountId, alice.cookie, true);
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatchObject({ code: "ERR1011", type: "payload_too_large", details: { max_bytes: UPLOAD_MAX_BYTES } });
    expect(declared.sentBytes).toBeLessThan(UPLOAD_MAX_BYTES);

    const chunked = await oversized(alice.accountId, alice.cookie, false);
    expect(chunked.status).toBe(413);
    expect(chunked.body.error?.code).toBe("ERR1011");
    expect(await db.playgroundUpload.count({ where: { accountId: alice.accountId } })).toBe(0);
  });

  it("refuses a text file sent as a PNG, a JPEG sent as a PNG and other types (415), storing nothing", async () => {
    const alice = await owner();
    const text = await upload(alice.accountId, "just some words, in a file named picture.png\n", { cookie: alice.cookie });
    expect(text.status).toBe(415);
    expect(text.body.error).toMatchObject({ code: "ERR1015", type: "unsupported_media_type", details: { content_type: "image/png" } });

    const mismatch = await upload(alice.accountId, await jpeg(), { cookie: alice.cookie });
    expect(mismatch.status).toBe(415);
    expect(mismatch.body.error?.details).toMatchObject({ content_type: "image/png", detected_type: "image/jpeg" });

    const pdf = await upload(alice.accountId, "%PDF-1.7", { cookie: alice.cookie, type: "application/pdf" });
    expect(pdf.status).toBe(415);
    expect(pdf.body.error?.details).toMatchObject({ content_type: "application/pdf" });
    expect(await db.playgroundUpload.count({ where: { accountId: alice.accountId } })).toBe(0);
  });

  it("stores a PNG (201) and serves it back through its signed link, valid 24 hours", async () => {
    const alice = await owner();
    const bytes = await png();
    const answer = await upload(alice.accountId, bytes, { cookie: alice.cookie });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe("success");
    const data = answer.body.data!;
    expect(data).toMatchObject({ content_type: "image/png", size_bytes: bytes.length });
    expect(data.url.startsWith(`${baseUrl()}/files/uploads/${alice.accountId}/`)).toBe(true);

    const row = await db.playgroundUpload.findFirstOrThrow({ where: { accountId: alice.accountId } });
    expect(row).toMatchObject({ userId: alice.userId, contentType: "image/png", sizeBytes: bytes.length });
    expect(row.storageKey).toMatch(new RegExp(`^uploads/${alice.accountId}/[0-9a-f-]{36}\\.png$`));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(24 * 3600_000);
    expect(data.expires_at).toBe(row.expiresAt.toISOString());
    expect(new URL(data.url).searchParams.get("expires")).toBe(String(Math.floor(row.expiresAt.getTime() / 1000)));

    const served = await fetch(data.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe("POST /api/playground/uploads: the live-upload cap", () => {
  it(`refuses an upload past ${MAX_LIVE_UPLOADS} unexpired ones (429, Retry-After), and takes one again when one has expired`, async () => {
    const alice = await owner();
    const now = Date.now();
    const rows = Array.from({ length: MAX_LIVE_UPLOADS }, (_, index) => ({
      accountId: alice.accountId,
      userId: alice.userId,
      storageKey: `uploads/${alice.accountId}/seeded-${index}.png`,
      contentType: "image/png",
      sizeBytes: 1,
      expiresAt: new Date(now + 3600_000 + index * 1000),
    }));
    await db.playgroundUpload.createMany({
      data: [...rows, { ...rows[0]!, storageKey: `uploads/${alice.accountId}/old.png`, expiresAt: new Date(now - 1000) }],
    });

    const full = await upload(alice.accountId, await png(), { cookie: alice.cookie });
    expect(full.status).toBe(429);
    expect(full.body.error).toMatchObject({ code: "ERR1009", details: { limit: MAX_LIVE_UPLOADS } });
    expect(full.body.error?.message).toMatch(/100 uploads that have not expired/);
    expect(Number(full.headers.get("retry-after"))).toBeGreaterThan(0);

    await db.playgroundUpload.updateMany({ where: { storageKey: rows[0]!.storageKey }, data: { expiresAt: new Date(now - 1000) } });
    expect((await upload(alice.accountId, await png(), { cookie: alice.cookie })).status).toBe(201);
  });
});
