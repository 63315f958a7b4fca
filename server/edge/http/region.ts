import "server-only";
import { appUrl, env, regions, type RegionName } from "../../base/env";
import { findHostnameOwner } from "../../hostnames/active-hostnames";
import { parseRegionHosts, regionBaseUrl } from "./region-hosts";

// A key works only on its region's address. REGION_HOSTS maps request hosts to regions
// ("api.eu.example.com=eu,..."); an active custom hostname is its account's region and takes only
// that account's keys; any other host (a custom hostname not active included) is this
// deployment's REGION.

export type RequestOrigin = {
  region: RegionName;
  /** Set on an active custom hostname: the only account whose keys it accepts. */
  hostnameAccountId: string | null;
};

function hostOfRequest(request: Request): string {
  return (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
}

export function regionOfRequest(request: Request): RegionName | null {
  const host = hostOfRequest(request);
  const hostname = host.replace(/:\d+$/, "");
  const map = parseRegionHosts(env().REGION_HOSTS);
  return map.get(host) ?? map.get(hostname) ?? null;
}

export async function originOfRequest(request: Request): Promise<RequestOrigin> {
  const region = regionOfRequest(request);
  if (region) return { region, hostnameAccountId: null };
  const owner = await findHostnameOwner(hostOfRequest(request));
  if (owner) return { region: owner.region, hostnameAccountId: owner.accountId };
  return { region: env().REGION, hostnameAccountId: null };
}

/** Every region's base address for this deployment (the dashboard's curl examples). */
export function regionBaseUrls(): Record<RegionName, string> {
  const config = { appUrl: appUrl(), regionHosts: env().REGION_HOSTS, defaultRegion: env().REGION };
  return Object.fromEntries(regions.map((region) => [region, regionBaseUrl(region, config)])) as Record<RegionName, string>;
}
