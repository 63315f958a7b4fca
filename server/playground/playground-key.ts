import "server-only";
import { recordActivity, type ActivityActor } from "../activity/record-activity";
import type { Db } from "../base/db";
import type { RegionName } from "../base/env";
import { ApiError } from "../base/error-table";
import { newApiKey } from "../keys/generate-key";
import { keyStateAt } from "../keys/key-state";
import { scopePresets } from "../keys/scopes";
import { inTransaction } from "../base/transaction";

// The account's "Dashboard playground" key: the runs made from the dashboard are attributed to it,
// so they show in the keys list, the request-free spend figures and a key's spend limit like any
// other key's, and an owner can cap or stop them there. Its value is drawn and thrown away at once
// (only its hash is stored, as for every key), so it authenticates nothing and cannot be rotated.

export const PLAYGROUND_KEY_NAME = "Dashboard playground";

export type PlaygroundKey = { id: string; prefix: string; region: RegionName };

const keySelect = { id: true, prefix: true, region: true, status: true, expiresAt: true, graceEndsAt: true } as const;

/** The key, or null before the account's first dashboard run. */
export async function findPlaygroundKey(db: Db, accountId: string) {
  return db.apiKey.findFirst({ where: { accountId, playground: true }, select: keySelect });
}

/** Why the key stops dashboard runs (revoked), or null when it lets them through. */
export function playgroundKeyRefusal(key: NonNullable<Awaited<ReturnType<typeof findPlaygroundKey>>> | null): string | null {
  if (!key || keyStateAt(key).acceptsRequests) return null;
  return `The account's ${PLAYGROUND_KEY_NAME} key (${key.prefix}) is ${keyStateAt(key).state}, so runs from the dashboard are stopped. Delete it on the API keys page and the next run makes a new one.`;
}

/** The key runs are attributed to, made on the account's first run; ERR1003 when it was revoked. */
export async function ensurePlaygroundKey(
  db: Db,
  input: { accountId: string; region: RegionName; actor: ActivityActor },
): Promise<PlaygroundKey> {
  const found = (await findPlaygroundKey(db, input.accountId)) ?? (await createPlaygroundKey(db, input));
  const refusal = playgroundKeyRefusal(found);
  if (refusal) throw new ApiError("ERR1003", refusal, { apikey_id: found.id });
  return { id: found.id, prefix: found.prefix, region: found.region };
}

async function createPlaygroundKey(db: Db, input: { accountId: string; region: RegionName; actor: ActivityActor }) {
  // Two first runs at once: one insert wins the account's one playground key, the other reads it.
  const { hash, prefix } = newApiKey();
  const scopes = [...scopePresets.generate];
  const created = await inTransaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO api_key (id, account_id, name, hash, prefix, scopes, region, playground, created_by_id, created_at)
      VALUES (gen_random_uuid(), ${input.accountId}::uuid, ${PLAYGROUND_KEY_NAME}, ${hash}, ${prefix}, ${scopes}::text[], ${input.region}::"Region", true,
              ${input.actor === "system" ? null : input.actor}::uuid, now())
      ON CONFLICT (account_id) WHERE playground DO NOTHING
      RETURNING id::text`;
    const id = rows[0]?.id;
    if (!id) return null;
    await recordActivity(tx, {
      accountId: input.accountId,
      actor: input.actor,
      category: "api_key",
      action: "api_key.created",
      description: `API key "${PLAYGROUND_KEY_NAME}" (${prefix}) created for runs from the dashboard; its value is never shown`,
      metadata: { apikey_id: id, apikey_prefix: prefix, scopes, region: input.region, playground: true },
    });
    return id;
  });
  const key = await findPlaygroundKey(db, input.accountId);
  if (!key) throw new ApiError("ERR5000", `The ${PLAYGROUND_KEY_NAME} key could not be made${created ? "" : " nor read"}.`);
  return key;
}
