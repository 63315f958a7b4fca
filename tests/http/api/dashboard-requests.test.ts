import http from "node:http";
import { describe, expect, it } from "vitest";
import { baseUrl, uniqueEmail } from "@/tests/support/http";
import { signIn, trpc } from "@/tests/support/session";

// What /api/trpc and /api/auth take before anything reads a body: at most 256 KiB (413, refused
// while the client is still sending), and for tRPC mutations only JSON from our own origin (403 in
// tRPC's error shape). Auth.js keeps its own CSRF token for its forms.

const CAP = 256 * 1024;

type Answer = { status: number; body: string; sentBeforeAnswer: number };

/**
 * A POST that sends `send` bytes of its body and then waits, never finishing it (declaring
 * `declaredLength`, or chunked when null). Only a server that answers before reading the whole
 * body answers at all.
 */
function postAndWaitOnce(
  path: string,
  headers: Record<string, string>,
  declaredLength: number | null,
  send: number,
  resets: string[],
): Promise<Answer | "reset"> {
  const url = new URL(path, baseUrl());
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answer: Answer | null = null;
    const chunks: Buffer[] = [];
    const answered = () => ({ ...answer!, body: Buffer.concat(chunks).toString("utf8") });
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: "POST",
        // A connection of its own: never a pooled socket the server has already closed.
        agent: false,
        headers: { ...headers, ...(declaredLength === null ? {} : { "content-length": String(declaredLength) }) },
      },
      (response) => {
        answer = { status: response.statusCode ?? 0, body: "", sentBeforeAnswer: sent };
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          resolve(answered());
          request.destroy();
        });
      },
    );
    // The server may close the connection on the unsent rest: that is expected, not a failure. A
    // reset can also reach this client before it read the answer (TCP discards what it had not
    // read yet): the caller asks again.
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (!["EPIPE", "ECONNRESET"].includes(error.code ?? "")) reject(new Error(`${error.code ?? "error"}: ${error.message}`));
      resets.push(`${error.code}: ${error.message} (after ${sent} bytes)`);
    });
    request.on("close", () => resolve(answer === null ? "reset" : answered()));
    const chunk = Buffer.alloc(16 * 1024, 0x20); // spaces: valid JSON padding
    const writeMore = () => {
      while (sent < send && !request.destroyed) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", writeMore);
      }
    };
    writeMore();
  });
}

async function postAndWait(path: string, headers: Record<string, string>, declaredLength: number | null, send: number): Promise<Answer> {
  const resets: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const answer = await postAndWaitOnce(path, headers, declaredLength, send, resets);
    if (answer !== "reset") return answer;
    await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
  throw new Error(`${path}: the connection was reset before any answer, three times (${resets.join("; ")})`);
}

const ownJson = () => ({ "content-type": "application/json", origin: baseUrl() });

function trpcError(body: string) {
  return (
    JSON.parse(body) as {
      error: { json: { message: string; code: number; data: { code: string; httpStatus: number; apiError: { code: string } } } };
    }
  ).error.json;
}

describe("body cap on /api/trpc", () => {
  it("refuses a body declared over 256 KiB with 413 before reading it (a 200 MB upload)", async () => {
    const answer = await postAndWait("/api/trpc/team.decline", ownJson(), 200 * 1024 * 1024, 64 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.sentBeforeAnswer).toBeLessThan(200 * 1024 * 1024);
    expect(trpcError(answer.body)).toMatchObject({
      code: -32013,
      data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413, apiError: { code: "ERR1011" } },
    });
  });

  it("refuses a chunked body once it passes 256 KiB, before it ends", async () => {
    const answer = await postAndWait("/api/trpc/team.decline", ownJson(), null, CAP + 64 * 1024);
    expect(answer.status).toBe(413);
    expect(trpcError(answer.body).data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", apiError: { code: "ERR1011" } });
  });

  it("still takes a body just under the cap", async () => {
    const token = "x".repeat(CAP - 100);
    const reply = await fetch(`${baseUrl()}/api/trpc/team.decline`, {
      method: "POST",
      headers: ownJson(),
      body: JSON.stringify({ json: { token } }),
    });
    // Read and judged by the procedure: not a 413.
    expect(reply.status).not.toBe(413);
    expect(reply.status).toBeLessThan(500);
  });
});

describe("body cap on /api/auth", () => {
  it("refuses a 20 MB body with 413 before reading it", async () => {
    const answer = await postAndWait(
      "/api/auth/signin/email",
      { "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
      20 * 1024 * 1024,
      64 * 1024,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "ERR1011" } });
  });

  it("refuses a chunked body once it passes 256 KiB", async () => {
    const answer = await postAndWait(
      "/api/auth/signin/email",
      { "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
      null,
      CAP + 64 * 1024,
    );
    expect(answer.status).toBe(413);
  });
});

describe("cross-site mutations on /api/trpc", () => {
  it("refuses form posts and other origins with 403 in tRPC's shape; the session keeps working", async () => {
    const { cookie } = await signIn(uniqueEmail("csrf"));
    const signOutEverywhere = (headers: Record<string, string>, body: BodyInit) =>
      fetch(`${baseUrl()}/api/trpc/settings.signOutEverywhere`, { method: "POST", headers: { cookie, ...headers }, body });
    const form = new FormData();
    form.set("json", "null");

    const refusals = [
      await signOutEverywhere({ origin: "http://evil.test" }, form), // multipart/form-data from another site
      await signOutEverywhere({}, form), // multipart/form-data, no Origin
      await signOutEverywhere({ origin: baseUrl() }, form), // our origin, but a form
      await signOutEverywhere({ origin: baseUrl(), "content-type": "text/plain" }, JSON.stringify({ json: null })),
      await signOutEverywhere({ origin: "http://evil.test", "content-type": "application/json" }, JSON.stringify({ json: null })),
      await signOutEverywhere({ origin: "null", "content-type": "application/json" }, JSON.stringify({ json: null })),
      await signOutEverywhere({ "content-type": "application/json" }, JSON.stringify({ json: null })), // neither Origin nor Sec-Fetch-Site
      await signOutEverywhere({ "content-type": "application/json", "sec-fetch-site": "cross-site" }, JSON.stringify({ json: null })),
    ];
    for (const [index, refused] of refusals.entries()) {
      expect(refused.status, `refusal ${index}`).toBe(403);
      expect(trpcError(await refused.text()), `refusal ${index}`).toMatchObject({
        code: -32003,
        data: { code: "FORBIDDEN", httpStatus: 403, apiError: { code: "ERR1003" } },
      });
    }
    // A batch is refused call by call, as tRPC answers a batch.
    const batch = await fetch(`${baseUrl()}/api/trpc/settings.signOutEverywhere?batch=1`, {
      method: "POST",
      headers: { cookie, origin: "http://evil.test", "content-type": "application/json" },
      body: JSON.stringify({ 0: { json: null } }),
    });
    expect(batch.status).toBe(403);
    expect(((await batch.json()) as Array<{ error: { json: { data: { code: string } } } }>)[0]?.error.json.data.code).toBe("FORBIDDEN");

    expect((await trpc("account.list", undefined, { cookie })).status).toBe(200);

    // From our own page (Sec-Fetch-Site without Origin is enough), the same call does its work.
    const own = await signOutEverywhere(
      { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      JSON.stringify({ json: null }),
    );
    expect(own.status).toBe(200);
    expect((await trpc("account.list", undefined, { cookie })).status).toBe(401);
  });

  it("answers queries (GET) from anywhere, as before: they change nothing", async () => {
    const { cookie } = await signIn(uniqueEmail("csrf-read"));
    const reply = await fetch(`${baseUrl()}/api/trpc/account.list?input=${encodeURIComponent(JSON.stringify({ json: null }))}`, {
      headers: { cookie, origin: "http://evil.test" },
    });
    expect(reply.status).toBe(200);
  });
});
