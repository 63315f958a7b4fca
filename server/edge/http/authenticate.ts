import "server-only";
import type { RequestOrigin } from "./region";
import { hashApiKey } from "../../keys/generate-key";
import { lookupKeyByHash } from "../../keys/key-cache";
import { keyStateAt } from "../../keys/key-state";
import { KeyRefused } from "../../keys/key-refused";
import type { AuthenticatedKey } from "../../keys/authenticated-key";

// Bearer key → the key row and its account. Every failure is the same ERR1002 to the client
// (no oracle for which keys exist); the reason goes to the request log when the key is known.

const KEY_SHAPE = /^dkr_[A-Za-z0-9]{40}$/;

export { KeyRefused };

export function bearerToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export async function authenticate(request: Request, origin: RequestOrigin, now = new Date()): Promise<AuthenticatedKey> {
  const token = bearerToken(request);
  if (!token) throw new KeyRefused(request.headers.has("authorization") ? "malformed_authorization" : "missing_key", null);
  if (!KEY_SHAPE.test(token)) throw new KeyRefused("malformed_key", null);

  // Cached per instance; revocations and other changes reach every instance at commit (key-cache.ts).
  const row = await lookupKeyByHash(hashApiKey(token), now.getTime());
  if (!row) throw new KeyRefused("unknown_key", null);

  const key: AuthenticatedKey = {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    region: row.region,
    status: row.status,
    ipAllowlist: Array.isArray(row.ipAllowlist) ? (row.ipAllowlist as string[]) : null,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    account: { id: row.account.id, plan: row.account.plan, region: row.account.region },
  };
  // A deleted account's keys are revoked with it; this holds even for one made afterwards.
  if (row.account.deletedAt) throw new KeyRefused("account_deleted", key);
  const state = keyStateAt(row, now);
  key.status = state.state;
  if (!state.acceptsRequests) throw new KeyRefused(state.state === "rotated" ? "rotation_grace_ended" : state.state, key);
  if (row.region !== origin.region) throw new KeyRefused("wrong_region", key);
  // A custom hostname is its account's address: another account's key is refused there.
  if (origin.hostnameAccountId !== null && row.accountId !== origin.hostnameAccountId) throw new KeyRefused("other_account_hostname", key);
  return key;
}
