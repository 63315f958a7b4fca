import "server-only";
import { db } from "../db";
import { generations } from "../http/operations";
import { withApiKey } from "../http/with-api-key";
import { assertAcceptingWork } from "../service/service-state";
import { inTransaction } from "../transaction";
import { cancelGeneration, canceledResponse, sendProviderCancel } from "./cancel-generation";
import { deleteOutputFiles, markGenerationRemoved } from "./delete-generation";
import { findModelFor } from "./generation-body";
import { findOwnGeneration, getGeneration, listGenerations } from "./read-generations";
import { planGeneration, startGeneration } from "./start-generation";

// The /v1 generation handlers, shared by the modern routes and their legacy aliases. Each owns
// its transactions and calls the domain; the operations say everything else.

const create = (operation: typeof generations.createImageGeneration | typeof generations.createVideoGeneration, kind: "image" | "video") =>
  withApiKey(operation, async ({ accountId, key, params, body }) => {
    await assertAcceptingWork(db);
    const model = findModelFor(kind, params.model_identifier ?? "");
    const plan = await planGeneration({ accountId, apiKeyId: key.id, region: key.region, model, fields: body });
    return (tx) => startGeneration(tx, plan);
  });

export const createImageGeneration = create(generations.createImageGeneration, "image");
export const createVideoGeneration = create(generations.createVideoGeneration, "video");

export const getContent = withApiKey(generations.getGeneration, async ({ accountId, params }) => getGeneration(db, accountId, params.generation_id ?? ""));

export const listContent = withApiKey(generations.listGenerations, async ({ accountId, query }) => {
  const { total, generations } = await listGenerations(db, accountId, query);
  return { data: { generations }, pagination: { total, limit: query.limit, offset: query.offset } };
});

async function cancel(accountId: string, generationId: string) {
  const canceled = await inTransaction((tx) => cancelGeneration(tx, accountId, generationId));
  return canceledResponse(canceled, await sendProviderCancel(canceled));
}

export const cancelContent = withApiKey(generations.cancelGeneration, async ({ accountId, params }) => cancel(accountId, params.generation_id ?? ""));

export const deleteContent = withApiKey(generations.deleteGeneration, async ({ accountId, params }) => {
  const generationId = params.generation_id ?? "";
  let row = await findOwnGeneration(db, accountId, generationId);
  if (row.status === "pending" || row.status === "processing") {
    // A run that finished meanwhile is simply deleted as it is.
    await cancel(accountId, generationId).catch(() => undefined);
    row = await findOwnGeneration(db, accountId, generationId);
  }
  const filesDeleted = await deleteOutputFiles(row);
  return inTransaction((tx) => markGenerationRemoved(tx, row, filesDeleted));
});
