import "server-only";
import { z } from "zod";
import { IDEMPOTENCY_KEY_PATTERN } from "../../contract/generations";
import { db } from "../../../base/db";
import { ApiError } from "../../../base/error-table";
import { requestCancel } from "../../../generations/cancel-generation";
import { isGuid } from "../../../base/guid";
import { keyStateAt } from "../../../keys/key-state";
import { listRecentRuns } from "../../../playground/list-runs";
import { findPlaygroundKey } from "../../../playground/playground-key";
import { assertMayRun, choosableRunRoles, readRunRoles, runRefusal, setRunRoles } from "../../../playground/run-roles";
import { inTransaction } from "../../../base/transaction";
import { MAX_COLUMNS, startComparison, viewComparison } from "../playground/compare-runs";
import { createRun } from "../playground/create-run";
import { estimateRun } from "../playground/estimate-run";
import { parseRunBody, servedModel } from "../playground/parse-run-body";
import { viewRun } from "../playground/run-view";
import { createTRPCRouter, memberProcedure, ownerProcedure } from "../trpc";

// The playground and Compare (server/playground, ../playground): every member reads estimates,
// runs and their own history; running and canceling a run need a role the account lets run
// (a team setting, owners and members by default), which owners change.

const identifier = z.string().min(1).max(200);
/** The form's body; the model's strict schema checks it (ERR1001 naming the field). */
const body = z.record(z.string(), z.unknown());
// 200, not 255: a comparison column appends ":<position>".
const idempotencyKey = z.string().max(200).regex(IDEMPOTENCY_KEY_PATTERN);
const generationInput = z.object({ generationId: z.string().max(100) });

export const playgroundRouter = createTRPCRouter({
  access: memberProcedure.query(async ({ ctx }) => {
    const [roles, key] = await Promise.all([readRunRoles(db, ctx.membership.accountId), findPlaygroundKey(db, ctx.membership.accountId)]);
    return {
      role: ctx.membership.role,
      roles,
      choosable_roles: [...choosableRunRoles],
      refusal: runRefusal(ctx.membership.role, roles),
      playground_key: key ? { apikey_id: key.id, apikey_prefix: key.prefix, state: keyStateAt(key).state } : null,
    };
  }),

  estimate: memberProcedure
    .input(z.object({ identifier, body }))
    .query(({ ctx, input }) => estimateRun(ctx.membership, input.identifier, input.body)),

  run: memberProcedure.input(z.object({ identifier, body, idempotencyKey })).mutation(async ({ ctx, input }) => {
    await assertMayRun(db, ctx.membership);
    const model = servedModel(input.identifier);
    const fields = parseRunBody(model, input.body);
    return createRun({
      accountId: ctx.membership.accountId,
      userId: ctx.userId,
      model,
      fields,
      rawBody: input.body,
      idempotencyKey: input.idempotencyKey,
      comparison: null,
    });
  }),

  compare: memberProcedure
    .input(z.object({ columns: z.array(z.object({ identifier, body })).min(1).max(MAX_COLUMNS), idempotencyKey }))
    .mutation(async ({ ctx, input }) => {
      await assertMayRun(db, ctx.membership);
      return startComparison(ctx.membership, ctx.userId, input);
    }),

  get: memberProcedure.input(generationInput).query(({ ctx, input }) => viewRun(ctx.membership.accountId, input.generationId)),

  comparison: memberProcedure
    .input(z.object({ comparisonId: z.string().max(100) }))
    .query(({ ctx, input }) => viewComparison(ctx.membership.accountId, input.comparisonId)),

  /** comparisons: true for the Compare page's, false for the playground's, absent for both. */
  history: memberProcedure
    .input(z.object({ comparisons: z.boolean().optional() }))
    .query(({ ctx, input }) =>
      listRecentRuns(db, { accountId: ctx.membership.accountId, userId: ctx.userId, comparisons: input.comparisons }),
    ),

  /** A run from the dashboard, by anyone who may run; other generations are canceled by owners (generations.cancel). */
  cancel: memberProcedure.input(generationInput).mutation(async ({ ctx, input }) => {
    await assertMayRun(db, ctx.membership);
    const run = isGuid(input.generationId)
      ? await db.playgroundRun.findFirst({
          where: { accountId: ctx.membership.accountId, generationId: input.generationId },
          select: { id: true },
        })
      : null;
    if (!run) throw new ApiError("ERR1006", "No run from the dashboard has this id.", { generation_id: input.generationId });
    return inTransaction((tx) => requestCancel(tx, ctx.scope, { generationId: input.generationId, actor: ctx.userId }));
  }),

  setRunRoles: ownerProcedure
    .input(z.object({ roles: z.array(z.string().max(32)).max(3) }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) => setRunRoles(tx, { accountId: ctx.membership.accountId, actor: ctx.userId, roles: input.roles })),
    ),
});
