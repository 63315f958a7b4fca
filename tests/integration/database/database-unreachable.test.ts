import http from "node:http";
import net from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isDatabaseUnreachable } from "@/server/base/database-unreachable";
import { db, disconnectDb } from "@/server/base/db";
import { env } from "@/server/base/env";
import { toApiError } from "@/server/base/error-table";
import { PrismaClient } from "@/server/base/generated/prisma/client";
import { freePort } from "@/server/start/database";
import { createTestAccount } from "@/tests/support/fixtures";
import { overTcp, startTcpProxy, type TcpProxy } from "@/tests/support/tcp-proxy";
import { until } from "@/tests/support/until";

// The one classifier of "PostgreSQL cannot be reached", fed the errors pg, its pool, the Prisma
// adapter and PostgreSQL itself really raise (a closed port, a server that never answers, a
// connection cut mid-query, a backend terminated), and errors that are not outages.

const database = new URL(env().DATABASE_URL as string);
let proxy: TcpProxy;
let silent: net.Server;
let silentPort: number;
const silentSockets = new Set<net.Socket>();

beforeAll(async () => {
  proxy = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
  // Accepts connections and never answers: a database behind dropped packets.
  silent = net.createServer((socket) => {
    silentSockets.add(socket);
    socket.on("close", () => silentSockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as net.AddressInfo).port;
});

afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
  await proxy.close();
  await disconnectDb();
});

const urlOn = (port: number) => overTcp(database, port);

async function failure(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("isDatabaseUnreachable", () => {
  it("a refused connection, from pg and through Prisma's adapter", async () => {
    const closed = urlOn(await freePort());
    expect(isDatabaseUnreachable(await failure(() => new pg.Client({ connectionString: closed }).connect()))).toBe(true);
    const pool = new pg.Pool({ connectionString: closed });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const thrown = await failure(() => prisma.account.count());
    await prisma.$disconnect();
    await pool.end();
    expect(isDatabaseUnreachable(thrown)).toBe(true);
    expect(toApiError(thrown)).toMatchObject({
      code: "ERR3001",
      details: { cause: "database_unreachable" },
      headers: { "retry-after": "5" },
    });
  });

  it("a connect that never completes: the client's and the pool's timeouts", async () => {
    const url = urlOn(silentPort);
    expect(
      isDatabaseUnreachable(await failure(() => new pg.Client({ connectionString: url, connectionTimeoutMillis: 200 }).connect())),
    ).toBe(true);
    const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 200 });
    const thrown = await failure(() => pool.query("SELECT 1"));
    await pool.end().catch(() => {});
    expect(isDatabaseUnreachable(thrown)).toBe(true);
  });

  it("a connection cut mid-query, and a backend terminated by the server", async () => {
    const client = new pg.Client({ connectionString: urlOn(proxy.port) });
    client.on("error", () => {});
    await client.connect();
    const sql = `SELECT pg_sleep(30) /* cut ${process.pid} */`;
    const running = failure(() => client.query(sql));
    const active = async () =>
      (
        await db.$queryRawUnsafe<Array<{ n: number }>>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1 AND state = 'active'",
          sql,
        )
      )[0]!.n > 0;
    await until(active, "the query running on the server");
    await proxy.down();
    expect(isDatabaseUnreachable(await running)).toBe(true);
    await proxy.up();

    const victim = new pg.Client({ connectionString: database.toString() });
    victim.on("error", () => {});
    await victim.connect();
    const pid = (await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const terminated = failure(() => victim.query("SELECT pg_sleep(30)"));
    await db.$queryRawUnsafe("SELECT pg_terminate_backend($1::int)", pid);
    const error = await terminated;
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it("a backend terminated under Prisma: a P2010 whose driver error (meta.driverAdapterError) is the 57P01", async () => {
    const pool = new pg.Pool({ connectionString: database.toString(), max: 1 });
    pool.on("error", () => {});
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const sql = `SELECT pg_sleep(30)::text /* terminated ${process.pid} */`;
    const viaPrisma = failure(() => prisma.$queryRawUnsafe(sql));
    const backend = async () =>
      (await db.$queryRawUnsafe<Array<{ pid: number }>>("SELECT pid FROM pg_stat_activity WHERE query = $1 AND state = 'active'", sql))[0]
        ?.pid;
    await until(async () => (await backend()) !== undefined, "the Prisma query's backend visible in pg_stat_activity");
    await db.$queryRawUnsafe("SELECT pg_terminate_backend($1::int)", await backend());
    const prismaError = await viaPrisma;
    await prisma.$disconnect();
    await pool.end().catch(() => {});
    expect(prismaError).toMatchObject({ code: "P2010" });
    expect(isDatabaseUnreachable(prismaError)).toBe(true);
  });

  it("is false for errors that are not outages", async () => {
    const client = new pg.Client({ connectionString: database.toString() });
    await client.connect();
    const syntax = await failure(() => client.query("SELEC 1"));
    await client.end();
    expect(isDatabaseUnreachable(syntax)).toBe(false);

    const { accountId } = await createTestAccount();
    const duplicate = await failure(() => db.account.create({ data: { id: accountId, name: "again", email: "again@example.test" } }));
    expect(isDatabaseUnreachable(duplicate)).toBe(false);
    expect(isDatabaseUnreachable(new Error("something else"))).toBe(false);
    expect(isDatabaseUnreachable(null)).toBe(false);
    expect(toApiError(new Error("something else")).code).toBe("ERR5000");
  });

  it("is false for a client that hangs up mid-body (Node's `aborted`, ECONNRESET without a syscall)", async () => {
    let resolveError: (error: unknown) => void = () => {};
    const seen = new Promise<unknown>((resolve) => (resolveError = resolve));
    const server = http.createServer((request) => {
      request.on("error", resolveError);
      request.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write('POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"generation_prompt":');
      setTimeout(() => socket.destroy(), 50);
    });
    const aborted = await seen;
    server.close();
    expect(aborted).toMatchObject({ code: "ECONNRESET" });
    expect(isDatabaseUnreachable(aborted)).toBe(false);
    expect(toApiError(aborted).code).toBe("ERR5000");
  });
});
