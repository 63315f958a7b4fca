import "server-only";
import { Resolver } from "node:dns/promises";
import { env } from "../base/env";

// One CNAME lookup with node:dns's Resolver: the servers of DNS_SERVERS (the system's when unset),
// one try, and a deadline of its own. What it found, or why not, is an outcome, never a throw: the
// verification records it and tries again later.

export type CnameLookup =
  | { outcome: "found"; targets: string[] }
  | { outcome: "nxdomain" }
  | { outcome: "no_cname" }
  | { outcome: "timeout" }
  | { outcome: "error"; code: string };

export type ResolveOptions = {
  /** `ip[:port]` entries; undefined: DNS_SERVERS, else the system's resolvers. */
  servers?: string[];
  timeoutMs?: number;
};

export const DNS_TIMEOUT_MS = 5000;

const normalize = (name: string) => name.toLowerCase().replace(/\.$/, "");

export async function resolveCname(hostname: string, options: ResolveOptions = {}): Promise<CnameLookup> {
  const timeoutMs = options.timeoutMs ?? DNS_TIMEOUT_MS;
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  const servers = options.servers ?? env().DNS_SERVERS;
  if (servers?.length) resolver.setServers(servers);
  let timer: NodeJS.Timeout | undefined;
  // c-ares' own timeout backs off per server; this bounds the whole lookup whatever it does.
  const deadline = new Promise<CnameLookup>((resolve) => {
    timer = setTimeout(() => {
      resolver.cancel();
      resolve({ outcome: "timeout" });
    }, timeoutMs + 250);
  });
  const lookup = resolver.resolveCname(hostname).then(
    (targets): CnameLookup => ({ outcome: "found", targets: targets.map(normalize) }),
    (error: NodeJS.ErrnoException): CnameLookup => {
      switch (error.code) {
        case "ENOTFOUND":
          return { outcome: "nxdomain" };
        case "ENODATA":
          return { outcome: "no_cname" };
        case "ETIMEOUT":
        case "ECANCELLED":
          return { outcome: "timeout" };
        default:
          return { outcome: "error", code: error.code ?? "EUNKNOWN" };
      }
    },
  );
  try {
    return await Promise.race([lookup, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The CNAME check's verdict in words for the dashboard and the CLI; null when it points at `target`. */
export function cnameProblem(hostname: string, lookup: CnameLookup, target: string): string | null {
  switch (lookup.outcome) {
    case "found":
      return lookup.targets.includes(normalize(target)) ? null : `${hostname} is a CNAME for ${lookup.targets.join(", ")}, not ${target}.`;
    case "nxdomain":
      return `${hostname} does not exist in DNS (NXDOMAIN): create a CNAME record pointing at ${target}.`;
    case "no_cname":
      return `${hostname} has no CNAME record: create one pointing at ${target} (in place of any A or AAAA records).`;
    case "timeout":
      return `The DNS lookup of ${hostname} timed out.`;
    case "error":
      return `The DNS lookup of ${hostname} failed (${lookup.code}).`;
  }
}
