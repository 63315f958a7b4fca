import http from "node:http";
import path from "node:path";
import next from "next";
import { CLIENT_IP_HEADER } from "../http/client-ip";

// Our own HTTP server in front of Next's handler, for one reason Next cannot serve: the client
// address from the socket (IP allowlists, hashed request-log IPs). Whatever a client sends in
// that header is overwritten.

export type RunningServer = { url: string; close: () => Promise<void> };

export async function startHttpServer(options: { port: number; host: string; dev: boolean }): Promise<RunningServer> {
  const dir = path.resolve(import.meta.dirname, "../..");
  const app = next({ dev: options.dev, dir, hostname: options.host, port: options.port });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer((req, res) => {
    req.headers[CLIENT_IP_HEADER] = req.socket.remoteAddress ?? "";
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolve);
  });
  const shownHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
  return {
    url: `http://${shownHost}:${options.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
