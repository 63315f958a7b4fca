import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchOutputFile } from "@/server/base/net/fetch-output-file";
import { safeFetch } from "@/server/base/net/safe-fetch";
import type { Resolver } from "@/server/base/net/resolve-and-check";

// Output downloads reuse an idle connection to the same host at the same checked addresses (one
// connection for many generations' files), never a connection opened for another address set;
// a connection the server closed while idle costs a retry on a new one, not a failed download;
// other fetches (webhooks, input files) still open a connection per request.

let server: http.Server;
let port = 0;
const connections: Socket[] = [];
const png = Buffer.alloc(200 * 1024, 7);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "image/png", "content-length": String(png.byteLength) });
    res.end(png);
  });
  server.on("connection", (socket: Socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A host name that resolves to loopback (development's PROVIDER_ALLOW_LOOPBACK) under the given name. */
const loopbackResolver: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];

describe("output downloads over kept-alive connections", () => {
  it("downloads ten files over one connection", async () => {
    const before = connections.length;
    for (let index = 0; index < 10; index += 1) {
      const file = await fetchOutputFile(`http://outputs-${port}.example:${port}/file-${index}.png`, {
        allowLoopback: true,
        resolver: loopbackResolver,
      });
      expect(file.bytes.equals(png)).toBe(true);
      expect(file.contentType).toBe("image/png");
    }
    expect(connections.length - before).toBe(1);
  });

  it("opens a new connection after the server closed the idle one, and the download succeeds", async () => {
    const url = `http://closing-${port}.example:${port}/file.png`;
    await fetchOutputFile(url, { allowLoopback: true, resolver: loopbackResolver });
    const before = connections.length;
    // The server drops every idle connection (as its keep-alive timeout would) without telling us first.
    for (const socket of connections) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const file = await fetchOutputFile(url, { allowLoopback: true, resolver: loopbackResolver });
    expect(file.bytes.byteLength).toBe(png.byteLength);
    expect(connections.length - before).toBe(1);
  });

  it("keeps the connections of one name apart per checked address set", async () => {
    const name = `split-${port}.example`;
    const before = connections.length;
    await fetchOutputFile(`http://${name}:${port}/a.png`, {
      allowLoopback: true,
      resolver: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    // Same name, another answer from DNS: the idle connection to the first answer is not reused.
    await fetchOutputFile(`http://${name}:${port}/b.png`, {
      allowLoopback: true,
      resolver: async () => [
        { address: "127.0.0.1", family: 4 },
        { address: "127.0.0.2", family: 4 },
      ],
    }).catch(() => null);
    expect(connections.length - before).toBeGreaterThanOrEqual(2);
  });

  it("opens a connection per request for other fetches", async () => {
    const before = connections.length;
    for (let index = 0; index < 3; index += 1) {
      const response = await safeFetch(`http://webhook-${port}.example:${port}/hook`, {
        allowLoopback: true,
        resolver: loopbackResolver,
        maxBytes: 1024 * 1024,
      });
      expect(response.status).toBe(200);
    }
    expect(connections.length - before).toBe(3);
  });
});
