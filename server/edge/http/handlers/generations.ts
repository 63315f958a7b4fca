import "server-only";
import { accountScope } from "../../../base/account-scope";
import { db, sqlPool } from "../../../base/db";
import { inTransaction } from "../../../base/transaction";
import { commitStep } from "../define-operation";
import { generations } from "../operations";
import { withApiKey } from "../with-api-key";
import { assertAcceptingWork } from "../../../service/service-state";
import { requestCancel } from "../../../generations/cancel-generation";
import { cancelBeforeDelete, deleteOutputFiles, markGenerationRemoved } from "../../../generations/delete-generation";
import { forgetRecord } from "../../../generations/records/public-record-cache";
import { findModelFor } from "../../../generations/generation-body";
import { readGenerationRecord } from "../../../generations/records/find-public-record";
import { listGenerations } from "../../../generations/records/own-generations";
import { planGeneration, startGeneration } from "../../../generations/start-generation";
import { startGenerationAtOnce } from "../../../generations/record-at-once";
import { waitForFinish } from "../../../generations/wait-for-finish";

// The /v1 generation handlers, shared by the modern routes and their legacy aliases. Each owns
// its transactions and calls the domain; the operations say everything else.

const create = (operation: typeof generations.createImageGeneration | typeof generations.createVideoGeneration, kind: "image" | "video") =>
  withApiKey(operation, async ({ accountId, key, params, body, waitSeconds, cancelAfterMs }) =>
    commitStep({
      prepare: async () => {
        await assertAcceptingWork(db);
        const model = findModelFor(kind, params.model_identifier ?? "");
        return planGeneration({
          accountId,
          apiKeyId: key.id,
          region: key.region,
          model,
          fields: body,
          cancelAfterMs,
          accountPlan: key.account.plan,
        });
      },
      commit: (tx, plan) => startGeneration(tx, plan),
      commitAtOnce: (plan, keyRecord) => startGenerationAtOnce(plan, keyRecord),
      // `Prefer: wait`: the answer also carries the record, once finished or when the wait runs out.
      respond: async (created) =>
        waitSeconds === null
          ? created
          : {
              ...created,
              generation_record: await waitForFinish(sqlPool(), accountScope(accountId), {
                generationId: created.generation_id,
                plan: key.account.plan,
                seconds: waitSeconds,
              }),
            },
    }),
  );

export const createImageGeneration = create(generations.createImageGeneration, "image");
export const createVideoGeneration = create(generations.createVideoGeneration, "video");

export const getContent = withApiKey(generations.getGeneration, async ({ accountId, key, params }) =>
  readGenerationRecord(sqlPool(), accountScope(accountId), { generationId: params.generation_id ?? "", plan: key.account.plan }),
);

export const listContent = withApiKey(generations.listGenerations, async ({ accountId, query }) => {
  const { limit, offset, starting_after: startingAfter } = query;
  const { total, generations, hasMore } = await listGenerations(db, accountId, { limit, offset, startingAfter });
  const next_cursor = hasMore ? (generations.at(-1)?.generation_id ?? null) : null;
  return { data: { generations }, pagination: { total, limit, offset: offset ?? 0, has_more: hasMore, next_cursor } };
});

export const cancelContent = withApiKey(generations.cancelGeneration, async ({ accountId, params }) =>
  inTransaction((tx) => requestCancel(tx, accountScope(accountId), { generationId: params.generation_id ?? "" })),
);

export const deleteContent = withApiKey(generations.deleteGeneration, async ({ accountId, params }) => {
  const scope = accountScope(accountId);
  const generationId = params.generation_id ?? "";
  const row = await inTransaction((tx) => cancelBeforeDelete(tx, scope, { generationId }));
  const filesDeleted = await deleteOutputFiles(row);
  const removed = await inTransaction((tx) => markGenerationRemoved(tx, scope, { row, filesDeleted }));
  forgetRecord(row.id);
  return removed;
});
