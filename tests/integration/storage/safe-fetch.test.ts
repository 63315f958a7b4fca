import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DestinationRefused, FetchFailed, FetchTimeout, InputFileRejected, ResponseTooLarge } from "@/server/base/net/fetch-failures";
import { fetchInputFile } from "@/server/base/net/fetch-input-file";
import type { Resolver } from "@/server/base/net/resolve-and-check";
import { safeFetch } from "@/server/base/net/safe-fetch";

// safeFetch against a plain HTTP server on 127.0.0.1, reachable only through the loopback
// development setting (WEBHOOK_ALLOW_LOOPBACK=1). The redirect, time and size rules and the
// pinned connection are the same code paths as over HTTPS.

type Seen = {
  method: string;
  url: string;
  host: string | undefined;
  headers: http.IncomingHttpHeaders;
  body: string;
  remoteAddress: string | undefined;
};

let server: http.Server;
let port: number;
let seen: Seen[] = [];
const sockets = new Set<import("node:net").Socket>();

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/ok": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("hello");
  },
  "/echo": (req, res) => {
    res.writeHead(201, { "content-type": "application/json", "x-custom": "yes" });
    res.end(JSON.stringify({ received: seen.at(-1)?.body }));
  },
  "/redirect": (_req, res) => {
    res.writeHead(302, { location: "/ok" });
    res.end("moved");
  },
  "/redirect-away": (_req, res) => {
    res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" });
    res.end();
  },
  "/slow-headers": (_req, res) => {
    setTimeout(() => {
      if (!res.destroyed) res.end("late");
    }, 20_000).unref();
  },
  "/slow-body": (_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("first part");
    setTimeout(() => {
      if (!res.destroyed) res.end("rest");
    }, 20_000).unref();
  },
  "/big-declared": (_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(2 * 1024 * 1024) });
    res.end(Buffer.alloc(2 * 1024 * 1024, 1));
  },
  "/big-chunked": (_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    let sent = 0;
    const pump = () => {
      while (sent < 2 * 1024 * 1024) {
        sent += 64 * 1024;
        if (!res.write(Buffer.alloc(64 * 1024, 2))) return void res.once("drain", pump);
      }
      res.end();
    };
    res.on("error", () => undefined);
    pump();
  },
  "/image.png": (_req, res) => {
    res.writeHead(200, { "content-type": "image/png; charset=binary" });
    res.end(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  },
  "/video.mp4": (_req, res) => {
    res.writeHead(200, { "content-type": "video/mp4" });
    res.end(Buffer.from("mp4"));
  },
  "/page.html": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html></html>");
  },
  "/untyped": (_req, res) => {
    res.writeHead(200);
    res.end("?");
  },
  "/missing.png": (_req, res) => {
    res.writeHead(404, { "content-type": "image/png" });
    res.end();
  },
  "/huge-image.png": (_req, res) => {
    res.writeHead(200, { "content-type": "image/png" });
    let sent = 0;
    const chunk = Buffer.alloc(256 * 1024, 3);
    const pump = () => {
      while (sent <= 21 * 1024 * 1024) {
        sent += chunk.byteLength;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    res.on("error", () => undefined);
    pump();
  },
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        host: req.headers.host,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        remoteAddress: req.socket.localAddress,
      });
      const route = routes[(req.url ?? "").split("?")[0]!];
      if (route) return route(req, res);
      res.writeHead(404);
      res.end();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
});

const dev = { allowLoopback: true };
const base = () => `http://127.0.0.1:${port}`;

function countingResolver(table: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return Object.assign(resolver, { calls });
}

describe("safeFetch", () => {
  it("fetches from a loopback server under the development setting", async () => {
    const response = await safeFetch(`${base()}/ok`, dev);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("hello");
    expect(response.headers["content-type"]).toBe("text/plain");
    expect(response.remoteAddress).toBe("127.0.0.1");
  });

  it("refuses the same server without the development setting, before connecting", async () => {
    await expect(safeFetch(`${base()}/ok`)).rejects.toBeInstanceOf(DestinationRefused);
    await expect(safeFetch(`https://127.0.0.1/ok`)).rejects.toMatchObject({ reason: "loopback" });
    expect(seen).toHaveLength(0);
  });

  it("sends the method, headers and body; the Host header is the URL's, whatever the caller says", async () => {
    const response = await safeFetch(`${base()}/echo?x=1`, {
      ...dev,
      method: "POST",
      headers: { "content-type": "application/json", "x-service-event": "webhook.test", Host: "evil.example" },
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.headers["x-custom"]).toBe("yes");
    expect(JSON.parse(response.body.toString())).toEqual({ received: '{"a":1}' });
    expect(seen[0]).toMatchObject({ method: "POST", url: "/echo?x=1", host: `127.0.0.1:${port}`, body: '{"a":1}' });
    expect(seen[0]!.headers["x-service-event"]).toBe("webhook.test");
    expect(seen[0]!.headers["content-length"]).toBe("7");
  });

  it("returns a 302 as it is and does not follow it", async () => {
    const response = await safeFetch(`${base()}/redirect`, dev);
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe("/ok");
    expect(response.body.toString()).toBe("moved");
    expect(seen.map((request) => request.url)).toEqual(["/redirect"]);
  });

  it("does not follow a redirect towards a metadata address either", async () => {
    const response = await safeFetch(`${base()}/redirect-away`, dev);
    expect(response.status).toBe(307);
    expect(seen).toHaveLength(1);
  });

  it("times out a server that does not answer", async () => {
    // The server would answer after 20 s: only the timeout can make it a FetchTimeout.
    await expect(safeFetch(`${base()}/slow-headers`, { ...dev, timeoutMs: 300 })).rejects.toBeInstanceOf(FetchTimeout);
  });

  it("times out a body that stalls after the headers", async () => {
    // The body would end after 20 s: only the timeout can make it a FetchTimeout.
    await expect(safeFetch(`${base()}/slow-body`, { ...dev, timeoutMs: 300 })).rejects.toBeInstanceOf(FetchTimeout);
  });

  it("times out a lookup that hangs", async () => {
    const hanging: Resolver = () => new Promise(() => undefined);
    await expect(safeFetch("https://hang.example.test/", { timeoutMs: 200, resolver: hanging })).rejects.toBeInstanceOf(FetchTimeout);
  });

  it("cuts a body whose declared length is over the cap", async () => {
    await expect(safeFetch(`${base()}/big-declared`, { ...dev, maxBytes: 1024 })).rejects.toBeInstanceOf(ResponseTooLarge);
  });

  it("cuts a chunked body once it passes the cap", async () => {
    const error = await safeFetch(`${base()}/big-chunked`, { ...dev, maxBytes: 100_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLarge);
    expect((error as ResponseTooLarge).maxBytes).toBe(100_000);
  });

  it("accepts a body of exactly the cap", async () => {
    const response = await safeFetch(`${base()}/ok`, { ...dev, maxBytes: 5 });
    expect(response.body.toString()).toBe("hello");
  });

  it("connects to the checked address, keeps the name in the Host header and looks it up once", async () => {
    const resolver = countingResolver({ "example.test": ["127.0.0.1"] });
    const response = await safeFetch(`http://example.test:${port}/ok`, { ...dev, resolver });
    expect(response.status).toBe(200);
    expect(response.remoteAddress).toBe("127.0.0.1");
    expect(seen[0]!.host).toBe(`example.test:${port}`);
    expect(resolver.calls).toEqual(["example.test"]);
  });

  it("refuses a name resolving to a private address without connecting", async () => {
    const resolver = countingResolver({ "example.test": ["10.0.0.7"] });
    const error = await safeFetch(`http://example.test:${port}/ok`, { ...dev, resolver }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestinationRefused);
    expect(error).toMatchObject({ reason: "private", address: "10.0.0.7" });
    // The message reaches customers: it names the rule, not what the name resolved to.
    expect((error as Error).message).toContain("the host example.test resolves to a private address");
    expect((error as Error).message).not.toContain("10.0.0.7");
    expect(seen).toHaveLength(0);
  });

  it("names a refused connection by its code, not by the address the host resolved to", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const resolver = countingResolver({ "example.test": ["127.0.0.1"] });
    const error = await safeFetch(`http://example.test:${closedPort}/`, { ...dev, resolver }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchFailed);
    expect((error as Error).message).toBe(`Request to example.test:${closedPort} failed: ECONNREFUSED`);
  });

  it("refuses http to a name with one loopback and one public address", async () => {
    const resolver = countingResolver({ "example.test": ["127.0.0.1", "93.184.215.14"] });
    await expect(safeFetch(`http://example.test:${port}/ok`, { ...dev, resolver })).rejects.toMatchObject({ reason: "scheme_not_https" });
    expect(seen).toHaveLength(0);
  });

  it("reports a refused connection as FetchFailed", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(safeFetch(`http://127.0.0.1:${closedPort}/`, dev)).rejects.toBeInstanceOf(FetchFailed);
  });

  it("reports a name that does not resolve as FetchFailed", async () => {
    await expect(safeFetch("https://nowhere.example.test/", { resolver: countingResolver({}) })).rejects.toBeInstanceOf(FetchFailed);
  });
});

describe("fetchInputFile", () => {
  it("returns an image with its media type", async () => {
    const file = await fetchInputFile(`${base()}/image.png`, dev);
    expect(file.contentType).toBe("image/png");
    expect([...file.bytes]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(seen[0]!.method).toBe("GET");
  });

  it("returns a video", async () => {
    await expect(fetchInputFile(`${base()}/video.mp4`, dev)).resolves.toMatchObject({ contentType: "video/mp4" });
  });

  it.each(["/page.html", "/untyped"])("rejects %s, which is not an image or video", async (path) => {
    await expect(fetchInputFile(`${base()}${path}`, dev)).rejects.toMatchObject({ name: "InputFileRejected", reason: "content_type" });
  });

  it("rejects an error status and a redirect, which it does not follow", async () => {
    await expect(fetchInputFile(`${base()}/missing.png`, dev)).rejects.toMatchObject({ reason: "http_status", status: 404 });
    const redirect = await fetchInputFile(`${base()}/redirect`, dev).catch((e: unknown) => e);
    expect(redirect).toBeInstanceOf(InputFileRejected);
    expect(redirect).toMatchObject({ reason: "http_status", status: 302 });
    expect(seen.map((request) => request.url)).toEqual(["/missing.png", "/redirect"]);
  });

  it("cuts a file over 20 MB", async () => {
    await expect(fetchInputFile(`${base()}/huge-image.png`, dev)).rejects.toBeInstanceOf(ResponseTooLarge);
  });

  it("applies the destination rules", async () => {
    await expect(fetchInputFile(`${base()}/image.png`)).rejects.toMatchObject({ reason: "loopback" });
    await expect(fetchInputFile("https://user:pw@images.example.com/a.png")).rejects.toMatchObject({ reason: "credentials_in_url" });
  });
});
