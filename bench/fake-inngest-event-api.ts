import http from "node:http";

// A stand-in for Inngest Cloud's Event API, for the bench's "runs executed elsewhere" figure: the
// server, configured with INNGEST_BASE_URL and INNGEST_EVENT_KEY, sends each create's event here
// after its commit, as it would to Inngest, and no run executes on this machine. It answers as the
// Event API does (POST /e/{event key}, a JSON event or array of events → 200
// `{ "ids": [...], "status": 200 }`) and counts what it received; anything else gets 200 `{}`.

export type FakeEventApi = { url: string; eventKey: string; received: () => number; close: () => Promise<void> };

export async function startFakeEventApi(eventKey = "bench-event-key"): Promise<FakeEventApi> {
  let received = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== `/e/${eventKey}`) {
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      let count = 0;
      try {
        const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        count = Array.isArray(body) ? body.length : 1;
      } catch {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid JSON", status: 400 }));
        return;
      }
      const ids = Array.from({ length: count }, (_, index) => `bench-${received + index}`);
      received += count;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ids, status: 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    eventKey,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
