import http from "node:http";
import path from "node:path";
import next from "next";
import { CLIENT_IP_HEADER } from "../base/net/client-ip";
import { decideAtEdge, isV1Path, malformedRequestAnswer, stripFrameworkHeaders, withoutTrailingSlash } from "../edge/http/v1-edge";
import { registerExecutor, unregisterExecutor } from "../base/events/executor-registry";
import { startEmbeddedExecutor, type RunningExecutor } from "../jobs/executor/start-embedded-executor";
import { inngestMode } from "../base/events/mode";
import { releaseFinishWaiters } from "../generations/finish-waiters";
import { LISTEN_BACKLOG } from "./listen-backlog";
import { lingerOnClose } from "./lingering-close";
import { isFileRequest, serveFileDirectly } from "./serve-files-directly";
import { serveV1Directly } from "./serve-v1-directly";
import { directHandler } from "../edge/http/direct-routes";
import { isHttpsAppUrl, NON_PAGE_CONTENT_SECURITY_POLICY, securityHeaders } from "../edge/http/security-headers";
import { appUrl } from "../base/env";

// Our own HTTP server in front of Next's handler, for what Next cannot do: hand over the client
// address from the socket (IP allowlists, hashed request-log IPs; whatever a client sends in that
// header is overwritten), answer /v1 requests Next would refuse in its own shape (v1-edge), and
// answer a /v1 route Next has loaded through its handler directly (serve-v1-directly). With no
// INNGEST_* configured, the embedded Inngest executor starts once the server listens and drives
// the functions through this server's own /api/inngest. Every answer leaves with the security
// headers (http/security-headers.ts); pages get their nonce policy from Next's proxy (proxy.ts).

export type RunningServer = { url: string; close: () => Promise<void> };

/** /v1, /api, /files and public/'s static files answer JSON or files, never a page: nothing in them may run. */
function isNonPagePath(url: string): boolean {
  return url.startsWith("/api/") || url.startsWith("/files/") || isV1Path(url) || isPublicFilePath(url);
}

/** The files of public/, which Next serves as they are (docs/catalog.md, "Examples"). */
function isPublicFilePath(url: string): boolean {
  return url.startsWith("/examples/") || url === "/robots.txt" || url.startsWith("/robots.txt?");
}

export async function startHttpServer(options: { port: number; host: string; dev: boolean }): Promise<RunningServer> {
  const dir = path.resolve(import.meta.dirname, "../..");
  const app = next({ dev: options.dev, dir, hostname: options.host, port: options.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const headers = Object.entries(securityHeaders({ https: isHttpsAppUrl(appUrl()) }));

  const server = http.createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "";
    // Set before any handler writes: Node merges them into whatever head is written later.
    for (const [name, value] of headers) res.setHeader(name, value);
    if (isNonPagePath(req.url ?? "/")) res.setHeader("content-security-policy", NON_PAGE_CONTENT_SECURITY_POLICY);
    if (isFileRequest(req)) {
      serveFileDirectly(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    if (isV1Path(req.url ?? "/")) {
      const decision = decideAtEdge(req.method ?? "GET", req.url ?? "/");
      if ("answer" in decision) {
        res.writeHead(decision.answer.status, decision.answer.headers);
        res.end(decision.answer.body); // Node leaves the body out of a HEAD answer
        return;
      }
      stripFrameworkHeaders(req.headers);
      req.url = withoutTrailingSlash(req.url ?? "/");
      // HEAD is served as GET; the response, created for a HEAD request, carries no body.
      if (decision.headAsGet) req.method = "GET";
      // A route Next has loaded is answered by its handler without Next's router (not in dev,
      // where Next reloads route files as they change).
      const direct = !options.dev && decision.route ? directHandler(decision.route.path, req.method ?? "GET") : undefined;
      if (direct) {
        serveV1Directly(req, res, direct, decision.route?.params ?? {}, decision.headAsGet).catch(() => res.destroy());
        return;
      }
    }
    void handle(req, res);
  });
  // A request Node cannot parse (an unknown method token, a broken header, headers past Node's
  // size limit) never reaches the handler.
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
    const answer = malformedRequestAnswer();
    // A HEAD whose request line Node did read (oversized headers) must get no body: its client
    // reads none, and the bytes after the headers break its parser (found by drill R4).
    const head = error.rawPacket?.toString("latin1", 0, 5) === "HEAD ";
    socket.end(
      `HTTP/1.1 ${answer.status} Bad Request\r\n${Object.entries({
        ...Object.fromEntries(headers),
        "content-security-policy": NON_PAGE_CONTENT_SECURITY_POLICY,
        ...answer.headers,
        "content-length": String(Buffer.byteLength(answer.body)),
        connection: "close",
      })
        .map(([name, value]) => `${name}: ${value}`)
        .join("\r\n")}\r\n\r\n${head ? "" : answer.body}`,
    );
  });
  // An early answer (413 before the body) reaches its client before the connection closes.
  server.on("connection", (socket) => lingerOnClose(socket));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port, host: options.host, backlog: LISTEN_BACKLOG }, resolve);
  });
  const shownHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const loopbackHost =
    options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host.includes(":") ? `[${options.host}]` : options.host;
  const executor: RunningExecutor | null =
    inngestMode() === "embedded"
      ? await startEmbeddedExecutor({ appUrl: `http://${loopbackHost}:${port}`, started: registerExecutor, stopping: unregisterExecutor })
      : null;
  return {
    url: `http://${shownHost}:${options.port}`,
    close: async () => {
      // Before the connections close: creates waiting for their generation (`Prefer: wait`) answer
      // with the record as it stands, and the executor lets in-flight steps finish (or parks them).
      await releaseFinishWaiters();
      await executor?.stop();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
