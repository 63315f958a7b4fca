import { sendJson, startFakeServer } from "../tests/fakes/fake-server";

// A stand-in for Inngest Cloud's Event API, for the bench's "runs executed elsewhere" figure: the
// server, configured with INNGEST_BASE_URL and INNGEST_EVENT_KEY, sends each create's event here
// after its commit, as it would to Inngest, and no run executes on this machine. It answers as the
// Event API does (POST /e/{event key}, a JSON event or array of events → 200
// `{ "ids": [...], "status": 200 }`) and counts what it received; anything else gets 200 `{}`.

export type FakeEventApi = { url: string; eventKey: string; received: () => number; close: () => Promise<void> };

export async function startFakeEventApi(eventKey = "bench-event-key"): Promise<FakeEventApi> {
  let received = 0;
  const server = await startFakeServer((request, response) => {
    if (request.method !== "POST" || request.path !== `/e/${eventKey}`) return sendJson(response, 200, {});
    if (request.body === null) return sendJson(response, 400, { error: "invalid JSON", status: 400 });
    const count = Array.isArray(request.body) ? request.body.length : 1;
    const ids = Array.from({ length: count }, (_, index) => `bench-${received + index}`);
    received += count;
    sendJson(response, 200, { ids, status: 200 });
  });
  return { url: server.baseUrl, eventKey, received: () => received, close: () => server.close() };
}
