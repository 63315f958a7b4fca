import "server-only";
import type { Generation } from "../../base/generated/prisma/client";
import type { PlanName } from "../../plans/plan-limits";
import { outputExpiresAt } from "../../storage/output-expiry";
import { signFileUrl } from "../../storage/signed-url";
import { locationOf, type DestinationSnapshot, type OutputLocation } from "../../storage/destinations/output-placement";

// Output links. Our files: signed /files links that expire with the files (the plan's output
// retention after completion). Files in the account's own bucket: under its public base URL, or a
// signed /files/customer/<generation>/<index> link that lives the destination's link lifetime from
// when it is issued and, when followed, redirects to a freshly presigned URL of the object in the
// bucket (the credential never leaves the server, and a link keeps working across a key rotation).

export const CUSTOMER_FILE_PREFIX = "customer";

type LinkSource = Pick<Generation, "id" | "completedAt" | "createdAt" | "outputKeys" | "outputLocations" | "outputDestination">;

export type OutputFiles = { urls: string[]; locations: OutputLocation[] };

/** The links, and where each file is (the same order). */
export function outputFiles(row: LinkSource, plan: PlanName, now = new Date()): OutputFiles {
  const ours = outputExpiresAt(plan, row.completedAt ?? row.createdAt);
  const destination = row.outputDestination as DestinationSnapshot | null;
  const files: OutputFiles = { urls: [], locations: [] };
  for (const [index, key] of row.outputKeys.entries()) {
    const location = locationOf(row, index);
    if (location === "darkroom") {
      if (ours.getTime() <= now.getTime()) continue;
      files.urls.push(signFileUrl(key, { expiresAt: ours }));
    } else if (destination?.public_base_url) {
      files.urls.push(`${destination.public_base_url}/${key.split("/").map(encodeURIComponent).join("/")}`);
    } else {
      const ttl = destination?.link_ttl_seconds ?? 3600;
      files.urls.push(signFileUrl(`${CUSTOMER_FILE_PREFIX}/${row.id}/${index}`, { expiresAt: new Date(now.getTime() + ttl * 1000) }));
    }
    files.locations.push(location);
  }
  return files;
}

export const outputFileUrls = (row: LinkSource, plan: PlanName, now = new Date()): string[] => outputFiles(row, plan, now).urls;
