import "server-only";
import type { Generation } from "../../base/generated/prisma/client";
import type { PlanName } from "../../plans/plan-limits";
import { outputExpiresAt } from "../../storage/output-expiry";
import { signFileUrl } from "../../storage/signed-url";
import { locationOf, type DestinationSnapshot, type OutputLocation } from "../../storage/destinations/output-placement";

// Output links. Our files: signed /files links that expire with the files (the plan's output
// retention after completion, or the create's shorter generation_output_retention), and sooner
// when the create asked for a link lifetime (generation_output_link_ttl, from when the record is
// read). Files in the account's own bucket: under its public base URL, or a signed
// /files/customer/<generation>/<index> link that lives the create's link lifetime (else the
// destination's) from when it is issued and, when followed, redirects to a freshly presigned URL
// of the object in the bucket (the credential never leaves the server).

export const CUSTOMER_FILE_PREFIX = "customer";

type LinkSource = Pick<
  Generation,
  | "id"
  | "completedAt"
  | "createdAt"
  | "outputKeys"
  | "outputLocations"
  | "outputDestination"
  | "outputRetentionSeconds"
  | "outputLinkTtlSeconds"
>;

export type OutputFiles = {
  urls: string[];
  locations: OutputLocation[];
  /** Per link, when it stops working (null: a public URL of the account's bucket). */
  linkExpiresAt: Array<string | null>;
  /** When this service deletes its files (null: none of its own, or not finished). */
  filesExpireAt: string | null;
};

/** When our files of this generation are deleted: the plan's window after completion, or the create's shorter retention. */
export function filesExpiryOf(row: Pick<LinkSource, "completedAt" | "createdAt" | "outputRetentionSeconds">, plan: PlanName): Date {
  const completed = row.completedAt ?? row.createdAt;
  const planned = outputExpiresAt(plan, completed);
  if (row.outputRetentionSeconds === null) return planned;
  const own = new Date(completed.getTime() + row.outputRetentionSeconds * 1000);
  return own < planned ? own : planned;
}

export function outputFiles(row: LinkSource, plan: PlanName, now = new Date()): OutputFiles {
  const ours = filesExpiryOf(row, plan);
  const destination = row.outputDestination as DestinationSnapshot | null;
  const issuedFor = (seconds: number) => new Date(now.getTime() + seconds * 1000);
  // Null only while every file is in the account's bucket (after the expiry only those keys are left).
  const allTheirs = row.outputKeys.length > 0 && row.outputKeys.every((_, index) => locationOf(row, index) === "customer");
  const files: OutputFiles = { urls: [], locations: [], linkExpiresAt: [], filesExpireAt: allTheirs ? null : ours.toISOString() };
  for (const [index, key] of row.outputKeys.entries()) {
    const location = locationOf(row, index);
    if (location === "darkroom") {
      if (ours.getTime() <= now.getTime()) continue;
      const asked = row.outputLinkTtlSeconds === null ? null : issuedFor(row.outputLinkTtlSeconds);
      const expiresAt = asked && asked < ours ? asked : ours;
      files.urls.push(signFileUrl(key, { expiresAt }));
      files.linkExpiresAt.push(expiresAt.toISOString());
    } else if (destination?.public_base_url) {
      files.urls.push(`${destination.public_base_url}/${key.split("/").map(encodeURIComponent).join("/")}`);
      files.linkExpiresAt.push(null);
    } else {
      const expiresAt = issuedFor(row.outputLinkTtlSeconds ?? destination?.link_ttl_seconds ?? 3600);
      files.urls.push(signFileUrl(`${CUSTOMER_FILE_PREFIX}/${row.id}/${index}`, { expiresAt }));
      files.linkExpiresAt.push(expiresAt.toISOString());
    }
    files.locations.push(location);
  }
  return files;
}

export const outputFileUrls = (row: LinkSource, plan: PlanName, now = new Date()): string[] => outputFiles(row, plan, now).urls;
