import "server-only";
import { randomUUID } from "node:crypto";
import { toGenerationRecord, type GenerationRecord, type RecordSource } from "./public-record";

// The generation a `webhook.test` event carries (the caller hands it to queueTestEvent, since
// webhooks sit below generations): a record made by the same function as every generation event's,
// so a receiver that narrows the test event to a generation payload finds each field with its name
// and type. Nothing of it exists: its id starts with SAMPLE_GENERATION_ID_PREFIX (still a UUID, as
// the field's type says) and the event's data says `test: true`.

export const SAMPLE_GENERATION_ID_PREFIX = "00000000-0000-4000-8000-";

const SAMPLE_MODEL = "darkroom/lumen-image";

/** A succeeded image generation of the account, made one second before `now`; no output files exist for it. */
export function sampleGenerationRecord(accountId: string, now = new Date()): GenerationRecord {
  const createdAt = new Date(now.getTime() - 1000);
  const row: RecordSource = {
    id: `${SAMPLE_GENERATION_ID_PREFIX}${randomUUID().slice(-12)}`,
    accountId,
    mediaKind: "image",
    modelIdentifier: SAMPLE_MODEL,
    status: "succeeded",
    prompt: "A test event from Darkroom",
    ratio: "1:1",
    outputFormat: "png",
    outputNumber: 1,
    durationSeconds: null,
    resolution: null,
    generateAudio: null,
    inputFiles: [],
    providerOrder: ["local"],
    providerUsed: "local",
    predictionId: `test-${randomUUID()}`,
    outputKeys: [],
    outputLocations: [],
    outputDestination: null,
    outputRetentionSeconds: null,
    outputLinkTtlSeconds: null,
    errorCode: null,
    errorMessage: null,
    metricsTotalTime: 1,
    metricsPredictTime: 0.5,
    startedAt: createdAt,
    completedAt: now,
    removedAt: null,
    deadlineAt: null,
    createdAt,
  };
  return toGenerationRecord(row, "free");
}
