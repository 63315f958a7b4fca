import "server-only";
import { env } from "../../base/env";
import { fetchInputFile } from "../../base/net/fetch-input-file";
import { readOwnFileLink } from "../../storage/own-file-link";
import { createLocalAdapter } from "./local-adapter";

// The built-in providers. Input files (image-to-image, image-to-video) come through the same
// SSRF-safe fetcher as webhooks: public HTTPS only, the checked address, no redirects; our own
// signed /files/ links (playground uploads) are read from storage.

const fetchInput = async (url: string) =>
  (await fetchInputFile(url, { allowLoopback: env().WEBHOOK_ALLOW_LOOPBACK, ownFiles: readOwnFileLink })).bytes;

export const localAdapter = createLocalAdapter("local", { fetchInput });
export const localBackupAdapter = createLocalAdapter("local-backup", { fetchInput });

export { createLocalAdapter, localPredictionId, type LocalAdapterOptions } from "./local-adapter";
export { localProviderFaults, planFaults, setLocalProviderFaults, type FaultOutcome, type FaultPlan } from "./faults";
export {
  localProviderIds,
  type LocalProviderFaults,
  type LocalProviderFaultsInput,
  type LocalProviderId,
} from "../../base/local-provider-faults";
export { renderImage, type RenderedImage, type RenderImageParams } from "./render-image";
export { renderVideo, type RenderedVideo, type RenderVideoParams } from "./render-video";
