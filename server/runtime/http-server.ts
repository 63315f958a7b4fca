import http from "node:http";
import path from "node:path";
import next from "next";
import { CLIENT_IP_HEADER } from "../http/client-ip";
import { startEmbeddedExecutor, type RunningExecutor } from "../inngest/executor/start-embedded-executor";
import { inngestMode } from "../inngest/mode";
import { isFileRequest, serveFileDirectly } from "./serve-files-directly";

// Our own HTTP server in front of Next's handler, for one reason Next cannot serve: the client
// address from the socket (IP allowlists, hashed request-log IPs). Whatever a client sends in
// that header is overwritten. With no INNGEST_* configured, the embedded Inngest executor starts
// once the server listens and drives the functions through this server's own /api/inngest.

export type RunningServer = { url: string; close: () => Promise<void> };

export async function startHttpServer(options: { port: number; host: string; dev: boolean }): Promise<RunningServer> {
  const dir = path.resolve(import.meta.dirname, "../..");
  const app = next({ dev: options.dev, dir, hostname: options.host, port: options.port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "";
    if (isFileRequest(req)) {
      serveFileDirectly(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const shownHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const loopbackHost = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host.includes(":") ? `[${options.host}]` : options.host;
  const executor: RunningExecutor | null = inngestMode() === "embedded" ? await startEmbeddedExecutor({ appUrl: `http://${loopbackHost}:${port}` }) : null;
  return {
    url: `http://${shownHost}:${options.port}`,
    close: async () => {
      // Before the connections close: the executor lets in-flight steps finish (or parks them).
      await executor?.stop();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
