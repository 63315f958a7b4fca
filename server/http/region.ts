import "server-only";
import { env, regions, type RegionName } from "../env";

// A key works only on its region's address. REGION_HOSTS maps request hosts
// to regions ("api.eu.example.com=eu,..."); any other host is this deployment's REGION.

function parseRegionHosts(value: string | undefined): Map<string, RegionName> {
  const map = new Map<string, RegionName>();
  for (const pair of (value ?? "").split(",")) {
    const [host, region] = pair.split("=").map((part) => part?.trim().toLowerCase());
    if (host && region && (regions as readonly string[]).includes(region)) map.set(host, region as RegionName);
  }
  return map;
}

export function regionOfRequest(request: Request): RegionName {
  const host = (request.headers.get("host") ?? new URL(request.url).host).toLowerCase();
  const hostname = host.replace(/:\d+$/, "");
  const map = parseRegionHosts(env().REGION_HOSTS);
  return map.get(host) ?? map.get(hostname) ?? env().REGION;
}
