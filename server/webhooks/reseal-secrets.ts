import type { Db } from "../base/db";
import { currentKey } from "../base/secrets/encryption-keys";
import { openEndpointSecret, sealedSecretColumns } from "./endpoint-secret";

// Re-seals webhook signing secrets under the current ENCRYPTION_KEY: plain-text rows from before
// sealing (every boot), and, for `secrets:rotate-key`, rows sealed under a previous key. A row
// whose key is not configured any more stops the run, naming its key id, and changes nothing.

export async function resealWebhookSecrets(db: Db, options: { plainTextOnly: boolean }): Promise<{ resealed: number; key_id: string }> {
  const current = currentKey().id;
  const where = options.plainTextOnly ? { secretKeyId: null } : { OR: [{ secretKeyId: null }, { secretKeyId: { not: current } }] };
  const rows = await db.webhookEndpoint.findMany({ where, select: { id: true, secret: true, secretKeyId: true } });
  const resealed = rows.map((row) => ({ id: row.id, columns: sealedSecretColumns(row.id, openEndpointSecret(row)), was: row.secretKeyId }));
  for (const row of resealed) {
    // Conditional on the key id it was read with: a roll in between keeps its new secret.
    await db.webhookEndpoint.updateMany({ where: { id: row.id, secretKeyId: row.was }, data: row.columns });
  }
  return { resealed: resealed.length, key_id: current };
}
