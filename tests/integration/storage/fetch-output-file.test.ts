import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DestinationRefused, OutputFileRejected, ResponseTooLarge } from "@/server/base/net/fetch-failures";
import { fetchOutputFile, MAX_OUTPUT_REDIRECTS } from "@/server/base/net/fetch-output-file";

// Provider output downloads against a real HTTP server on 127.0.0.1: with the policy as production
// has it (no PROVIDER_ALLOW_LOOPBACK) a loopback output is refused before any connection; with the
// development setting, every redirect hop is checked again and the body stops at the cap.

let server: http.Server;
let base: string;
let seen: string[] = [];
let streamedBytes = 0;
/** Resolves when the endless response's connection closes: the client stopped reading. */
let endlessClosed: Promise<void> = Promise.resolve();
const sockets = new Set<Socket>();
const chunk = Buffer.alloc(16 * 1024, 1);

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/internal-secret.png": (_req, res) => {
    res.writeHead(200, { "content-type": "image/png" });
    res.end("internal secret");
  },
  "/to-secret": (_req, res) => {
    res.writeHead(302, { location: "/internal-secret.png" });
    res.end();
  },
  "/to-private": (_req, res) => {
    res.writeHead(307, { location: "http://10.0.0.7/internal-secret.png" });
    res.end();
  },
  "/to-unspecified": (_req, res) => {
    res.writeHead(301, { location: `http://0.0.0.0:${new URL(base).port}/internal-secret.png` });
    res.end();
  },
  "/loop": (_req, res) => {
    res.writeHead(302, { location: "/loop" });
    res.end();
  },
  "/missing": (_req, res) => {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("no");
  },
  "/declared-huge": (_req, res) => {
    res.writeHead(200, { "content-type": "image/png", "content-length": String(1024 * 1024 * 1024) });
    res.write(chunk);
  },
  "/endless": (_req, res) => {
    endlessClosed = new Promise((resolve) => res.on("close", () => resolve()));
    res.writeHead(200, { "content-type": "image/png" });
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) streamedBytes += chunk.byteLength;
      if (!res.destroyed) res.once("drain", pump);
    };
    pump();
  },
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    seen.push(path);
    (routes[path] ?? ((_q, r) => r.writeHead(404).end()))(req, res);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  streamedBytes = 0;
});

const dev = { allowLoopback: true };
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable("the download succeeded"),
    (error: unknown) => error,
  );

describe("fetchOutputFile without PROVIDER_ALLOW_LOOPBACK (production)", () => {
  it.each([
    ["a loopback address", () => `${base}/internal-secret.png`, "loopback"],
    ["0.0.0.0, which reaches loopback", () => `${base.replace("127.0.0.1", "0.0.0.0")}/internal-secret.png`, "unspecified"],
    ["localhost", () => `${base.replace("127.0.0.1", "localhost")}/internal-secret.png`, "localhost"],
  ])("refuses an output URL on %s without connecting", async (_label, url, reason) => {
    const error = await caught(fetchOutputFile(url()));
    expect(error).toBeInstanceOf(DestinationRefused);
    expect(error).toMatchObject({ reason });
    expect(seen).toEqual([]);
  });
});

describe("fetchOutputFile with the development setting", () => {
  it("downloads, following a redirect to an allowed address", async () => {
    const file = await fetchOutputFile(`${base}/to-secret`, dev);
    expect(file).toEqual({ bytes: Buffer.from("internal secret"), contentType: "image/png" });
    expect(seen).toEqual(["/to-secret", "/internal-secret.png"]);
  });

  it.each([
    ["a private address", "/to-private", "private"],
    ["0.0.0.0", "/to-unspecified", "unspecified"],
  ])("checks every redirect hop: a redirect to %s is refused before connecting", async (_label, path, reason) => {
    const error = await caught(fetchOutputFile(`${base}${path}`, dev));
    expect(error).toBeInstanceOf(DestinationRefused);
    expect(error).toMatchObject({ reason });
    expect(seen).toEqual([path]);
  });

  it(`follows at most ${MAX_OUTPUT_REDIRECTS} redirects`, async () => {
    const error = await caught(fetchOutputFile(`${base}/loop`, dev));
    expect(error).toBeInstanceOf(OutputFileRejected);
    expect(error).toMatchObject({ reason: "too_many_redirects" });
    expect(seen).toHaveLength(MAX_OUTPUT_REDIRECTS + 1);
  });

  it("rejects an error status", async () => {
    await expect(fetchOutputFile(`${base}/missing`, dev)).rejects.toMatchObject({ reason: "http_status", status: 404 });
  });

  it("refuses a declared length over the cap before reading the body", async () => {
    const error = await caught(fetchOutputFile(`${base}/declared-huge`, { ...dev, maxBytes: 1024 * 1024 }));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect(error).toMatchObject({ maxBytes: 1024 * 1024 });
  });

  it("stops reading an endless body at the cap", async () => {
    const maxBytes = 1024 * 1024;
    const error = await caught(fetchOutputFile(`${base}/endless`, { ...dev, maxBytes }));
    expect(error).toBeInstanceOf(ResponseTooLarge);
    // The client dropped the connection at the cap; the server sent little more than socket buffers hold.
    await endlessClosed;
    expect(streamedBytes).toBeLessThan(maxBytes * 16);
  });
});
