// Whether an error means PostgreSQL cannot be reached right now (refused, reset or terminated
// connections, a pool that cannot connect in time, a server shutting down or starting up), as
// `pg`, its pool, @prisma/adapter-pg and Prisma report it. The one classifier: toApiError answers
// these with ERR3001 and Retry-After instead of ERR5000, since retrying later is what helps.

/** Socket errors of a connection that failed or broke. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/**
 * SQLSTATEs: class 08 (connection exception); 57P01..57P03 (the server shutting down or not yet
 * accepting connections); 53300 (too many connections).
 */
const SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** Prisma's codes for the same: can't reach (P1001), timed out reaching (P1002, P1008), closed (P1017), pool timeout (P2024). */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** `pg` and pg-pool errors that carry no code. */
const MESSAGES =
  /^timeout expired$|Connection terminated|timeout exceeded when trying to connect|Connection ended|Client has encountered a connection error|server closed the connection unexpectedly|Can't reach database server|Server has closed the connection/i;

/** Driver-adapter error kinds (the `cause` of a DriverAdapterError). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

type Inspectable = {
  code?: unknown;
  errorCode?: unknown;
  syscall?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
  meta?: unknown;
  driverAdapterError?: unknown;
};

export function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== "object" || error === null) return false;
  const candidate = error as Inspectable;
  for (const code of [candidate.code, candidate.errorCode]) {
    if (typeof code !== "string") continue;
    if (PRISMA_CODES.has(code) || SQLSTATE.test(code)) return true;
    // A socket's own error names its system call; a client that hung up mid-body (Node's
    // "aborted", code ECONNRESET, no syscall) is not the database.
    if (SOCKET_CODES.has(code) && typeof candidate.syscall === "string") return true;
  }
  if (typeof candidate.kind === "string" && ADAPTER_KINDS.has(candidate.kind)) return true;
  if (typeof candidate.message === "string" && MESSAGES.test(candidate.message)) return true;
  if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isDatabaseUnreachable(inner, depth + 1))) return true;
  // Prisma keeps the driver's error under meta.driverAdapterError.cause (P2010 for a 57P01).
  return [candidate.cause, candidate.meta, candidate.driverAdapterError].some((inner) => isDatabaseUnreachable(inner, depth + 1));
}
