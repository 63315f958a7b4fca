import "server-only";
import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { DestinationRefused, FetchFailed, FetchTimeout, ResponseTooLarge } from "./fetch-failures";
import { resolveAndCheck, type ResolvedAddress, type Resolver } from "./resolve-and-check";
import { asStaleConnection, StaleConnection } from "./stale-connection";

// Fetches a customer-given URL under the destination rules: the host is
// resolved and checked once, the socket connects to a checked address through a pinned lookup
// (TLS still verifies the certificate for the name), no redirect is followed, and the whole
// exchange is bounded in time and size. Node's http client is used rather than fetch because
// only it lets us hand the connection its address.

export type SafeFetchOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The whole exchange: lookup, connect, request, response body. */
  timeoutMs?: number;
  maxBytes?: number;
  allowLoopback?: boolean;
  resolver?: Resolver;
  /** Certificate authorities for https instead of Node's bundled ones (tests trust a self-signed receiver). */
  ca?: string | Buffer | Array<string | Buffer>;
  /**
   * Reuse an idle connection to the same host at the same checked addresses (output downloads:
   * one provider host, a file per generation). Off by default: a connection per request.
   */
  keepAlive?: boolean;
  /**
   * Reads a 2xx body as it arrives instead of collecting it (an output file on its way to an
   * account's bucket): the chunks, already counted against `maxBytes`; the answer's `body` is then
   * empty. Other statuses are collected as usual (a redirect, an error page).
   */
  stream?: (chunks: AsyncIterable<Buffer>, headers: IncomingHttpHeaders) => Promise<void>;
};

export type SafeFetchResponse = {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The checked address the connection went to. */
  remoteAddress: string;
};

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;

export async function safeFetch(url: string | URL, options: SafeFetchOptions = {}): Promise<SafeFetchResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new FetchTimeout(timeoutMs)), timeoutMs);
  try {
    const destination = await raceAbort(resolveAndCheck(url, options), controller.signal);
    const agent = options.keepAlive && !options.ca ? pooledAgent(destination) : false;
    try {
      return await request(destination, options, maxBytes, controller.signal, agent);
    } catch (error) {
      // The server closed an idle connection as we reused it: once more on a new one.
      if (error instanceof StaleConnection) return await request(destination, options, maxBytes, controller.signal, false);
      throw error;
    }
  } finally {
    clearTimeout(timer);
  }
}

type Destination = Awaited<ReturnType<typeof resolveAndCheck>>;

const IDLE_CONNECTION_MS = 2_000;
const MAX_POOLED_DESTINATIONS = 64;
const pooledAgents = new Map<string, http.Agent>();

/**
 * A keep-alive agent per host and set of checked addresses: its connections were all opened to
 * those addresses through the pinned lookup, so a request reusing one goes where its own check
 * allowed, never to an address resolved earlier for another set. Idle connections close after 2 s
 * (before a server's usual 5 s keep-alive timeout); the least recently created agent is dropped past 64.
 */
function pooledAgent({ url, hostname, port, addresses }: Destination): http.Agent {
  const key = `${url.protocol}//${hostname}:${port} ${addresses
    .map(({ address }) => address)
    .sort()
    .join(",")}`;
  const known = pooledAgents.get(key);
  if (known) return known;
  if (pooledAgents.size >= MAX_POOLED_DESTINATIONS) {
    const [oldest] = pooledAgents.keys();
    if (oldest !== undefined) {
      pooledAgents.get(oldest)?.destroy();
      pooledAgents.delete(oldest);
    }
  }
  const Agent = url.protocol === "https:" ? https.Agent : http.Agent;
  const agent = new Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS, maxSockets: 32, scheduling: "lifo" });
  pooledAgents.set(key, agent);
  return agent;
}

function request(
  destination: Destination,
  options: SafeFetchOptions,
  maxBytes: number,
  signal: AbortSignal,
  agent: http.Agent | false,
): Promise<SafeFetchResponse> {
  const { url, hostname, port, addresses } = destination;
  const body = typeof options.body === "string" ? Buffer.from(options.body) : options.body;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) if (name.toLowerCase() !== "host") headers[name] = value;
  headers.host = url.host;
  if (body) headers["content-length"] = String(body.byteLength);

  return new Promise<SafeFetchResponse>((resolve, reject) => {
    let settled = false;
    let answered = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.destroy();
      const stale = signal.aborted ? null : asStaleConnection(req, answered, error);
      if (stale) return reject(stale);
      reject(
        signal.aborted
          ? signal.reason
          : error instanceof DestinationRefused || error instanceof ResponseTooLarge
            ? error
            : new FetchFailed(`Request to ${url.host} failed: ${describe(error)}`, { cause: error }),
      );
    };

    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request({
      host: hostname,
      port,
      path: `${url.pathname}${url.search}`,
      method: options.method ?? "GET",
      headers,
      // A pooled connection only from an agent of these very checked addresses (pooledAgent).
      agent,
      lookup: pinnedLookup(addresses),
      ...(url.protocol === "https:" && !isIP(hostname) ? { servername: hostname } : {}),
      ...(url.protocol === "https:" && options.ca ? { ca: options.ca } : {}),
    });

    const onAbort = () => fail(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("close", () => signal.removeEventListener("abort", onAbort));
    req.on("error", fail);

    req.on("response", (res: IncomingMessage) => {
      answered = true;
      const remoteAddress = res.socket?.remoteAddress ?? "";
      // Belt and braces: the pinned lookup is the only way this socket could have been opened.
      if (!isCheckedAddress(remoteAddress, addresses)) {
        return fail(new DestinationRefused("invalid_address", "The connection did not go to the checked address", remoteAddress));
      }
      // A HEAD answer's length is the object's, not a body's.
      const declared = options.method === "HEAD" ? Number.NaN : Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) return fail(new ResponseTooLarge(maxBytes));

      const status = res.statusCode ?? 0;
      if (options.stream && status >= 200 && status < 300) {
        options.stream(counted(res, maxBytes), res.headers).then(() => {
          if (settled) return;
          settled = true;
          resolve({ status, headers: res.headers, body: Buffer.alloc(0), remoteAddress });
        }, fail);
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > maxBytes) return fail(new ResponseTooLarge(maxBytes));
        chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("end", () => {
        if (settled) return;
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), remoteAddress });
      });
    });

    req.end(body);
  });
}

/** The body's chunks as they arrive, ResponseTooLarge past `maxBytes`. */
async function* counted(res: IncomingMessage, maxBytes: number): AsyncGenerator<Buffer> {
  let received = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    if (received > maxBytes) throw new ResponseTooLarge(maxBytes);
    yield chunk;
  }
}

/** Answers every lookup with the checked addresses, whatever name the socket asks for. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === "IPv4" ? 4 : options.family === 6 || options.family === "IPv6" ? 6 : 0;
    const candidates = family === 0 ? addresses : addresses.filter((entry) => entry.family === family);
    const first = candidates[0];
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`No checked IPv${family} address`);
      error.code = "ENOTFOUND";
      return callback(error, "", undefined);
    }
    if (options.all) return callback(null, candidates);
    return callback(null, first.address, first.family);
  };
}

function isCheckedAddress(remote: string, addresses: ResolvedAddress[]) {
  if (!ipaddr.isValid(remote)) return false;
  const normalized = ipaddr.process(remote).toNormalizedString();
  return addresses.some(({ address }) => ipaddr.isValid(address) && ipaddr.process(address).toNormalizedString() === normalized);
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * A socket error by its code alone ("connect ECONNREFUSED 10.0.0.7:443" names the address the host
 * resolved to); others (TLS) with their message, which says what is wrong with the certificate.
 */
function describe(error: unknown) {
  if (!(error instanceof Error)) return String(error);
  const code = "code" in error && error.code ? String(error.code) : null;
  if (code && "syscall" in error) return code;
  return code ? `${code}: ${error.message}` : error.message;
}
