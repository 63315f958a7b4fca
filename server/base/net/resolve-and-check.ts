import { promises as dns } from "node:dns";
import { isIP } from "node:net";
import { checkDestinationUrl, classifyAddress, refuseAddress, type CheckedUrl, type DestinationOptions } from "./destination-policy";
import { FetchFailed } from "./fetch-failures";

// A host passes only when EVERY address it resolves to is public: otherwise an attacker's name
// with one public and one private record would reach the private one on a retry. The caller
// then connects to these checked addresses and never looks the name up again (no rebinding).

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true });

export type CheckedDestination = CheckedUrl & { addresses: ResolvedAddress[] };

/** Throws DestinationRefused (policy) or FetchFailed (the name does not resolve). */
export async function resolveAndCheck(
  input: string | URL,
  options: DestinationOptions & { resolver?: Resolver } = {},
): Promise<CheckedDestination> {
  const checked = checkDestinationUrl(input, options);
  if (checked.literalAddress) {
    return { ...checked, addresses: [{ address: checked.literalAddress, family: isIP(checked.literalAddress) === 6 ? 6 : 4 }] };
  }

  let found: Array<{ address: string; family: number }>;
  try {
    found = await (options.resolver ?? systemResolver)(checked.hostname);
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? ` (${String(error.code)})` : "";
    throw new FetchFailed(`DNS lookup of ${checked.hostname} failed${code}`, { cause: error });
  }
  if (found.length === 0) throw new FetchFailed(`DNS lookup of ${checked.hostname} returned no address`);

  const addresses: ResolvedAddress[] = [];
  let allLoopback = true;
  for (const { address } of found) {
    const reason = classifyAddress(address);
    const loopbackAllowed = reason === "loopback" && options.allowLoopback === true;
    if (reason !== "public" && !loopbackAllowed) throw refuseAddress(address, reason, checked.hostname);
    if (reason !== "loopback") allLoopback = false;
    addresses.push({ address, family: isIP(address) === 6 ? 6 : 4 });
  }
  if (checked.loopbackOnly && !allLoopback) throw checked.loopbackOnly();
  return { ...checked, addresses };
}
