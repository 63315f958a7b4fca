import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/prisma/client";
import { env } from "./env";

// One Prisma client per process (kept on globalThis so Next's dev reloads reuse it).

const globalForDb = globalThis as unknown as { darkroomDb?: PrismaClient };

function createClient() {
  const url = env().DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: boot code must start the embedded database first");
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 20 }) });
}

export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    globalForDb.darkroomDb ??= createClient();
    const value = Reflect.get(globalForDb.darkroomDb, property);
    return typeof value === "function" ? value.bind(globalForDb.darkroomDb) : value;
  },
});

export async function disconnectDb() {
  await globalForDb.darkroomDb?.$disconnect();
  globalForDb.darkroomDb = undefined;
}

/** The client handed to functions that must run inside a caller's transaction. */
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
export type Db = PrismaClient | Tx;
