import "server-only";
import { isIP } from "node:net";
import { appUrl, env } from "../base/env";

// The service's own names: APP_URL's host, the REGION_HOSTS hosts and the CNAME target, with the
// parent domain of each (api.darkroom.example → darkroom.example). A customer may not attach any
// of them, or a name under them, as a custom hostname; requests on them never look one up.

function hostOf(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^\[|\](:\d+)?$/g, "")
    .replace(/:\d+$/, "")
    .replace(/\.$/, "");
}

/** The host of APP_URL, without a port: the default CNAME target. */
export function appHost(): string {
  return new URL(appUrl()).hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/** What a custom hostname's CNAME must point at: CUSTOM_HOSTNAME_TARGET, else APP_URL's host. */
export function hostnameTarget(): string {
  return hostOf(env().CUSTOM_HOSTNAME_TARGET ?? appHost());
}

/** The service's own hosts, lowercase, without ports. */
export function serviceHosts(): string[] {
  const regionHosts = (env().REGION_HOSTS ?? "")
    .split(",")
    .map((pair) => hostOf(pair.split("=")[0] ?? ""))
    .filter(Boolean);
  return [...new Set([appHost(), hostnameTarget(), ...regionHosts])];
}

/**
 * The domains nothing may be attached under: each own host, and its parent when the host has three
 * labels or more (a two-label host's parent is a public suffix such as `com`). Without a public
 * suffix list, a host like `darkroom.co.uk` would make `co.uk` a parent: set APP_URL to a name
 * one level deeper (api.darkroom.co.uk) in that case.
 */
export function serviceDomains(): string[] {
  const domains = new Set<string>();
  for (const host of serviceHosts()) {
    if (isIP(host) !== 0) continue;
    domains.add(host);
    const labels = host.split(".");
    if (labels.length >= 3) domains.add(labels.slice(1).join("."));
  }
  return [...domains];
}

/** True when `hostname` is one of the service's domains or a name under one. */
export function isUnderServiceDomain(hostname: string, domains = serviceDomains()): boolean {
  return domains.some((domain) => hostname === domain || hostname.endsWith(`.${domain}`));
}
