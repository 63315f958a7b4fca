import "server-only";
import { isIP } from "node:net";
import { db } from "../base/db";
import type { RegionName } from "../base/env";
import { serviceHosts } from "./service-domains";

// Which account a request's Host belongs to, when it is an active custom hostname of an Enterprise
// account. The /v1 hot path asks this once per request, so it never costs a query per request:
// the service's own hosts, IP addresses and single-label names are answered without looking; any
// other host is looked up in an in-process map of every active hostname, loaded at most every
// ACTIVE_HOSTNAMES_TTL_MS and at once after a change made in this process. Other processes
// (instances, the CLI) see a change within the TTL.

export type HostnameOwner = { accountId: string; region: RegionName };

export const ACTIVE_HOSTNAMES_TTL_MS = 15_000;

type Snapshot = { loadedAt: number; hosts: Map<string, HostnameOwner> };

// On globalThis: Next bundles each route separately, and the verification (the Inngest route) must
// invalidate the map the /v1 routes read.
type CacheState = { snapshot: Snapshot | null; loading: Promise<Snapshot> | null; generation: number };
const globalForHostnames = globalThis as unknown as { darkroomActiveHostnames?: CacheState };
const cache = (globalForHostnames.darkroomActiveHostnames ??= { snapshot: null, loading: null, generation: 0 });

async function load(): Promise<Snapshot> {
  const generation = cache.generation;
  const rows = await db.customHostname.findMany({
    where: { status: "active", account: { plan: "enterprise" } },
    select: { hostname: true, account: { select: { id: true, region: true } } },
  });
  const snapshot: Snapshot = {
    loadedAt: Date.now(),
    hosts: new Map(rows.map((row) => [row.hostname, { accountId: row.account.id, region: row.account.region }])),
  };
  // A change made while this was loading may be missing from it: keep it for this caller only.
  if (generation === cache.generation) cache.snapshot = snapshot;
  return snapshot;
}

function currentSnapshot(): Promise<Snapshot> {
  const snapshot = cache.snapshot;
  if (snapshot && Date.now() - snapshot.loadedAt < ACTIVE_HOSTNAMES_TTL_MS) return Promise.resolve(snapshot);
  cache.loading ??= load().finally(() => {
    cache.loading = null;
  });
  return cache.loading;
}

/** The Host header's name: lowercase, without port, brackets or trailing dot. */
export function hostnameOfHost(host: string): string {
  const lower = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\]/.exec(lower);
  if (bracketed) return bracketed[1] as string;
  return lower.replace(/:\d*$/, "").replace(/\.$/, "");
}

/** The account whose active custom hostname `host` is, or null. */
export async function findHostnameOwner(host: string): Promise<HostnameOwner | null> {
  const hostname = hostnameOfHost(host);
  if (!hostname.includes(".") || isIP(hostname) !== 0 || serviceHosts().includes(hostname)) return null;
  return (await currentSnapshot()).hosts.get(hostname) ?? null;
}

/** After a hostname became active or stopped being so in this process: the next request reloads. */
export function forgetActiveHostnames(): void {
  cache.generation += 1;
  cache.snapshot = null;
  cache.loading = null;
}
