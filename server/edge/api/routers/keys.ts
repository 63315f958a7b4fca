import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { regions } from "../../../base/env";
import { createApiKey, MAX_KEY_NAME_LENGTH } from "../../../keys/create-key";
import { deleteApiKey } from "../../../keys/delete-key";
import { findApiKey } from "../../../keys/find-key";
import { MAX_ALLOWLIST_ENTRIES } from "../../../keys/ip-allowlist";
import { listApiKeys } from "../../../keys/list-keys";
import { revokeApiKey } from "../../../keys/revoke-key";
import { MAX_GRACE_HOURS, MIN_GRACE_HOURS, rotateApiKey } from "../../../keys/rotate-key";
import { inTransaction } from "../../../base/transaction";
import { spendPeriods } from "../../../spend/periods";
import { parseSpendLimit } from "../../../spend/spend-limit-input";
import { createTRPCRouter, memberProcedure, ownerProcedure } from "../trpc";

// API keys from the dashboard (spec §5, key management): every member views; owners and the
// primary owner create, rotate, revoke and delete. The domain functions in server/keys hold the
// rules (name, scopes, expiry, allowlist, grace) and record the api_key activity events; the
// limits here only bound what reaches them. Another account's key id is ERR1006.

/** Any id: the domain answers ERR1006 for one that is malformed or not this account's. */
const id = z.string().max(100);

const keyInput = z.object({ keyId: id });

export const keysRouter = createTRPCRouter({
  list: memberProcedure.query(({ ctx }) => listApiKeys(db, ctx.scope)),

  get: memberProcedure.input(keyInput).query(({ ctx, input }) => findApiKey(db, ctx.scope, input.keyId)),

  /** The new key with its full value: the only time it is shown. */
  create: ownerProcedure
    .input(
      z.object({
        // The domain counts 1–100 characters after trimming; a character is at most two UTF-16 units.
        name: z.string().max(MAX_KEY_NAME_LENGTH * 2),
        preset: z.string().max(32).optional(),
        scopes: z.array(z.string().max(32)).max(12).optional(),
        region: z.enum(regions).optional(),
        expiresAt: z.date().nullish(),
        // Each entry is trimmed and checked (≤ 45 characters, IPv4/IPv6/CIDR) by the domain.
        ipAllowlist: z.array(z.string().max(100)).max(MAX_ALLOWLIST_ENTRIES).nullish(),
        // Credits as typed (the domain checks 3 decimals); its period defaults to month.
        spendLimit: z.union([z.string().max(32), z.number()]).nullish(),
        spendPeriod: z.enum(spendPeriods).optional(),
      }),
    )
    .mutation(({ ctx, input }) => {
      const { spendLimit, spendPeriod, ...key } = input;
      const spendLimitMillis =
        spendLimit === undefined || spendLimit === null || spendLimit === "" ? null : parseSpendLimit(spendLimit, "spend_limit");
      return inTransaction((tx) =>
        createApiKey(tx, { ...key, spendLimitMillis, spendPeriod, accountId: ctx.membership.accountId, actor: ctx.userId }),
      );
    }),

  /** The replacement key with its full value, shown once; the old key works until its grace ends. */
  rotate: ownerProcedure
    .input(z.object({ keyId: id, graceHours: z.int().min(MIN_GRACE_HOURS).max(MAX_GRACE_HOURS).optional() }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) => rotateApiKey(tx, ctx.scope, { keyId: input.keyId, graceHours: input.graceHours, actor: ctx.userId })),
    ),

  revoke: ownerProcedure
    .input(keyInput)
    .mutation(({ ctx, input }) => inTransaction((tx) => revokeApiKey(tx, ctx.scope, { keyId: input.keyId, actor: ctx.userId }))),

  /** The key and its request logs, for good. */
  delete: ownerProcedure
    .input(keyInput)
    .mutation(({ ctx, input }) => inTransaction((tx) => deleteApiKey(tx, ctx.scope, { keyId: input.keyId, actor: ctx.userId }))),
});
