import net from "node:net";
import { freePort } from "@/server/start/database";

// A TCP proxy in the test process between a server and PostgreSQL, for outages without stopping
// the shared database: `down()` cuts every open connection and stops listening (a new connection
// is refused, as a stopped PostgreSQL's port refuses it); `up()` listens again on the same port.

export type TcpProxy = {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const open = new Set<net.Socket>();
  let server: net.Server | null = null;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          open.add(socket);
          socket.on("close", () => open.delete(socket));
          socket.on("error", () => (socket === client ? upstream : client).destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      listening.once("error", reject);
      listening.listen(port, "127.0.0.1", () => resolve());
      server = listening;
    });

  const down = async () => {
    const closing = server;
    server = null;
    for (const socket of open) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };

  await listen();
  return { port, down, up: listen, close: down };
}

/**
 * The database URL over TCP on 127.0.0.1:`port` (a proxy, a closed or silent port). The embedded
 * PostgreSQL's URL names its socket directory (`?host=`), which pg would use instead of the port.
 */
export function overTcp(databaseUrl: string | URL, port: number): string {
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  url.searchParams.delete("host");
  return url.toString();
}
