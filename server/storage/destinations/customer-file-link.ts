import "server-only";
import { db } from "../../base/db";
import { isGuid } from "../../base/guid";
import { locationOf, type DestinationSnapshot } from "./output-placement";
import { openDestination } from "./store";

// Where a signed /files/customer/<generation>/<index> link leads (server/generations/records/
// output-files.ts): a GET URL of the object in the account's bucket, presigned for a few minutes
// now, or null when the file is gone (generation deleted, destination removed or changed).

export const REDIRECT_PRESIGN_SECONDS = 300;

export async function customerFileUrl(key: string): Promise<string | null> {
  const [, generationId = "", indexText = ""] = key.split("/");
  const index = Number(indexText);
  if (!isGuid(generationId) || !Number.isInteger(index) || index < 0) return null;
  const row = await db.generation.findUnique({
    where: { id: generationId },
    select: { accountId: true, status: true, removedAt: true, outputKeys: true, outputLocations: true, outputDestination: true },
  });
  if (!row || row.status !== "succeeded" || row.removedAt || locationOf(row, index) !== "customer") return null;
  const objectKey = row.outputKeys[index];
  const snapshot = row.outputDestination as DestinationSnapshot | null;
  const destination = await openDestination(db, row.accountId);
  if (
    !objectKey ||
    !snapshot ||
    !destination ||
    destination.row.bucket !== snapshot.bucket ||
    destination.row.endpoint !== snapshot.endpoint
  )
    return null;
  return destination.storage.presignGet(objectKey, REDIRECT_PRESIGN_SECONDS);
}
