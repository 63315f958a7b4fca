import "server-only";
import { db } from "../../base/db";
import { log } from "../../base/log";
import { getStorage } from "../get-storage";
import { openDestination } from "./store";

// Where each output file of a generation is: "darkroom" (our storage) or "customer" (the
// account's bucket, described by the generation's output_destination snapshot, without secret).
// An empty location list is an older record or an account without a destination: all ours.

export type OutputLocation = "darkroom" | "customer";

/** What a record keeps of the bucket its files went to: enough to link and to tell, no credential. */
export type DestinationSnapshot = {
  endpoint: string;
  bucket: string;
  prefix: string;
  public_base_url: string | null;
  link_ttl_seconds: number | null;
};

export type PlacedOutputs = { keys: string[]; locations: OutputLocation[]; destination: DestinationSnapshot | null };

export const locationOf = (row: { outputLocations: string[] }, index: number): OutputLocation =>
  row.outputLocations[index] === "customer" ? "customer" : "darkroom";

/** `{generation_id}`, `{account_id}`, `{date}` (UTC, YYYY-MM-DD) filled in; then the generation's own folder unless the prefix names it. */
export function destinationKey(prefix: string, parts: { accountId: string; generationId: string; file: string; now: Date }): string {
  const filled = prefix
    .replaceAll("{generation_id}", parts.generationId)
    .replaceAll("{account_id}", parts.accountId)
    .replaceAll("{date}", parts.now.toISOString().slice(0, 10));
  const folder = prefix.includes("{generation_id}") ? filled : [filled, parts.generationId].filter(Boolean).join("/");
  return `${folder}/${parts.file}`;
}

/**
 * Deletes a generation's files wherever they are; how many were removed. Files in the account's
 * bucket are deleted only while that bucket is still its destination (a removed or changed one
 * cannot be reached any more: left to the customer, and logged).
 */
export async function deletePlacedOutputs(
  row: { id: string; accountId: string; outputKeys: string[]; outputLocations: string[]; outputDestination: unknown },
  options: { customerFiles: boolean } = { customerFiles: true },
): Promise<number> {
  let deleted = 0;
  const ours = getStorage();
  const customerKeys = row.outputKeys.filter((_, index) => locationOf(row, index) === "customer");
  for (const [index, key] of row.outputKeys.entries()) if (locationOf(row, index) === "darkroom" && (await ours.delete(key))) deleted += 1;
  if (customerKeys.length === 0 || !options.customerFiles) return deleted;
  const destination = await openDestination(db, row.accountId);
  const snapshot = row.outputDestination as DestinationSnapshot | null;
  if (!destination || !snapshot || destination.row.bucket !== snapshot.bucket || destination.row.endpoint !== snapshot.endpoint) {
    log.warn("storage: a generation's files in a bucket that is no longer the account's destination were left there", {
      generation_id: row.id,
      files: customerKeys.length,
    });
    return deleted;
  }
  for (const key of customerKeys) if (await destination.storage.delete(key)) deleted += 1;
  return deleted;
}
