import type http from "node:http";

// A keep-alive connection the server closed while it sat idle, found out when a request reused it:
// nothing was answered on it, so the request may go once more on a new connection (Node's own advice
// for `reusedSocket`). Shared by the two clients that pool connections: safeFetch (output
// downloads) and the provider API transport.

export class StaleConnection extends Error {}

const CLOSED_BY_PEER = new Set(["ECONNRESET", "EPIPE"]);

/** `error` as a StaleConnection when it is that case (a reused socket, closed by the peer before any answer), else null. */
export function asStaleConnection(req: http.ClientRequest, answered: boolean, error: unknown): StaleConnection | null {
  const code = error instanceof Error && "code" in error ? String(error.code) : "";
  return req.reusedSocket && !answered && CLOSED_BY_PEER.has(code) ? new StaleConnection(code) : null;
}
