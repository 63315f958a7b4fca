import { regions, type RegionName } from "../../base/env";

// REGION_HOSTS ("api.eu.example.com=eu,jp.example.com:8443=jp"): request host → region. Read by
// the request's region check (region.ts) and by the dashboard's curl examples (regionBaseUrl).

export function parseRegionHosts(value: string | undefined): Map<string, RegionName> {
  const map = new Map<string, RegionName>();
  for (const pair of (value ?? "").split(",")) {
    const [host, region] = pair.split("=").map((part) => part?.trim().toLowerCase());
    if (host && region && (regions as readonly string[]).includes(region)) map.set(host, region as RegionName);
  }
  return map;
}

/** The region a host ("name" or "name:port") resolves to through REGION_HOSTS, else `fallback`. */
export function regionOfHost(host: string, map: Map<string, RegionName>, fallback: RegionName): RegionName {
  const lower = host.toLowerCase();
  return map.get(lower) ?? map.get(lower.replace(/:\d+$/, "")) ?? fallback;
}

export type RegionAddressConfig = { appUrl: string; regionHosts: string | undefined; defaultRegion: RegionName };

/**
 * The base address (no trailing slash, no /v1) where a key of `region` authenticates: APP_URL when
 * its host resolves to that region, else the first REGION_HOSTS host of that region (with APP_URL's
 * scheme), else APP_URL.
 */
export function regionBaseUrl(region: RegionName, config: RegionAddressConfig): string {
  const base = new URL(config.appUrl);
  const map = parseRegionHosts(config.regionHosts);
  if (regionOfHost(base.host, map, config.defaultRegion) === region) return config.appUrl;
  const host = [...map].find(([, hostRegion]) => hostRegion === region)?.[0];
  return host ? `${base.protocol}//${host}` : config.appUrl;
}
