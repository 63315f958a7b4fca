import http from "node:http";
import https from "node:https";
import type { FunctionDefinition, FunctionTrigger, JsonObject } from "./types";
import { serveHandlerOf, type ServeHandler } from "./in-process-handler";
import { signBody, type HttpReply } from "./step-protocol";

// The app's serve handler as the executor reaches it over HTTP: an in-band sync (PUT) that returns
// the registration body (functions, triggers, retries, onFailure handlers), and Call Requests
// (POST ?fnId=&stepId=). Every request is signed, so the handler's normal verification applies.
// node:http rather than fetch: a step may run longer than undici's 300 s header timeout. When the
// synced app's handler is registered in this process (the app's own route), Call Requests call it
// directly: no socket, no HTTP parsing, no trip through Next's router, and no signature
// (in-process-handler.ts).

const DEFAULT_RETRIES = 3;

type SyncedFunction = {
  id?: unknown;
  name?: unknown;
  triggers?: unknown;
  steps?: { step?: { retries?: { attempts?: unknown } } };
  concurrency?: unknown;
};

/**
 * Inngest's `concurrency` option (a number, one limit or a list): the smallest keyless limit of
 * function scope. Keyed limits (per user, …) and env/account scopes are not enforced here.
 */
function functionConcurrency(raw: unknown): number | null {
  const limits = (Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw]).flatMap((entry: unknown) => {
    if (typeof entry === "number") return [entry];
    if (!entry || typeof entry !== "object") return [];
    const { limit, key, scope } = entry as JsonObject;
    return typeof limit === "number" && !key && (scope === undefined || scope === "fn") ? [limit] : [];
  });
  const positive = limits.filter((limit) => Number.isInteger(limit) && limit > 0);
  return positive.length > 0 ? Math.min(...positive) : null;
}

/** The first keyed limit of function scope (`{ key: "event.data.accountId", limit: 8 }`), or null. */
function functionConcurrencyKey(raw: unknown): FunctionDefinition["concurrencyKey"] {
  for (const entry of Array.isArray(raw) ? raw : [raw]) {
    if (!entry || typeof entry !== "object") continue;
    const { limit, key, scope } = entry as JsonObject;
    if (
      typeof key === "string" &&
      key &&
      typeof limit === "number" &&
      Number.isInteger(limit) &&
      limit > 0 &&
      (scope === undefined || scope === "fn")
    )
      return { expression: key, limit };
  }
  return null;
}

function toDefinition(raw: SyncedFunction): FunctionDefinition | null {
  if (typeof raw.id !== "string") return null;
  const triggers: FunctionTrigger[] = [];
  for (const trigger of Array.isArray(raw.triggers) ? (raw.triggers as JsonObject[]) : []) {
    if (typeof trigger.cron === "string") triggers.push({ cron: trigger.cron });
    else if (typeof trigger.event === "string")
      triggers.push({
        event: trigger.event,
        ...(typeof trigger.expression === "string" && trigger.expression ? { expression: trigger.expression } : {}),
      });
  }
  const retries = raw.steps?.step?.retries?.attempts;
  return {
    id: raw.id,
    name: typeof raw.name === "string" ? raw.name : raw.id,
    triggers,
    maxAttempts: (typeof retries === "number" && retries >= 0 ? retries : DEFAULT_RETRIES) + 1,
    concurrency: functionConcurrency(raw.concurrency),
    concurrencyKey: functionConcurrencyKey(raw.concurrency),
  };
}

export class ServeEndpoint {
  private readonly agent: http.Agent;
  private appId: string | null = null;

  constructor(
    private readonly url: URL,
    private readonly signingKey: string,
    private readonly requestTimeoutMs: number,
  ) {
    const Agent = url.protocol === "https:" ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: 64 });
  }

  /** In-band sync: the handler answers with its registration body instead of calling Inngest. */
  async sync(): Promise<{ appId: string; functions: FunctionDefinition[] }> {
    const reply = await this.request("PUT", this.url, JSON.stringify({ url: this.url.href }), { "x-inngest-sync-kind": "in_band" });
    if (reply.status !== 200 || reply.headers["x-inngest-sync-kind"] !== "in_band") {
      throw new Error(`sync with ${this.url.href} failed: HTTP ${reply.status} ${reply.text.slice(0, 300)} (in-band sync must be allowed)`);
    }
    const body = JSON.parse(reply.text) as { app_id?: unknown; functions?: unknown };
    const functions = (Array.isArray(body.functions) ? (body.functions as SyncedFunction[]) : [])
      .map(toDefinition)
      .filter((fn): fn is FunctionDefinition => fn !== null);
    this.appId = typeof body.app_id === "string" ? body.app_id : "";
    return { appId: this.appId, functions };
  }

  /** One Call Request. Network failures come back as a 599 reply; an abort rejects. */
  async call(functionId: string, stepId: string, body: unknown, signal: AbortSignal): Promise<HttpReply> {
    const url = new URL(this.url.href);
    url.searchParams.set("fnId", functionId);
    url.searchParams.set("stepId", stepId);
    const handler = this.appId ? serveHandlerOf(this.appId) : undefined;
    try {
      return handler
        ? await this.callInProcess(handler, url, JSON.stringify(body), signal)
        : await this.request("POST", url, JSON.stringify(body), {}, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return {
        status: 599,
        headers: {},
        text: JSON.stringify({ name: "EmbeddedExecutorError", message: `calling the serve handler failed: ${message}` }),
      };
    }
  }

  close() {
    this.agent.destroy();
  }

  /** The Call Request as a function call, with the same timeout and abort as over HTTP. */
  private callInProcess(handler: ServeHandler, url: URL, body: string, signal: AbortSignal): Promise<HttpReply> {
    // Unsigned: the handler registered for in-process calls skips the check (app/api/inngest/route.ts).
    const answer = handler(url, body);
    return new Promise<HttpReply>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${this.requestTimeoutMs} ms`)), this.requestTimeoutMs);
      const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      signal.addEventListener("abort", onAbort, { once: true });
      answer.then(resolve, reject).finally(() => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      });
    });
  }

  private request(method: string, url: URL, body: string, extraHeaders: Record<string, string>, signal?: AbortSignal): Promise<HttpReply> {
    const transport = url.protocol === "https:" ? https : http;
    return new Promise<HttpReply>((resolve, reject) => {
      const request = transport.request(
        url,
        {
          method,
          agent: this.agent,
          signal,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            // The SDK checks the timestamp against its own wall clock, not an injected one.
            "x-inngest-signature": signBody(body, this.signingKey, Date.now()),
            ...extraHeaders,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") }),
          );
          response.on("error", reject);
        },
      );
      request.setTimeout(this.requestTimeoutMs, () => request.destroy(new Error(`no answer within ${this.requestTimeoutMs} ms`)));
      request.on("error", reject);
      request.end(body);
    });
  }
}
