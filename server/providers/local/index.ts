import { createLocalAdapter } from "./local-adapter";

// The built-in providers. The lead wires the SSRF-safe input fetcher through createLocalAdapter
// options; these default instances ignore input files.

export const localAdapter = createLocalAdapter("local");
export const localBackupAdapter = createLocalAdapter("local-backup");

export { createLocalAdapter, localPredictionId, type LocalAdapterOptions } from "./local-adapter";
export { localProviderFaults, planFaults, setLocalProviderFaults, type FaultOutcome, type FaultPlan } from "./faults";
export { localProviderIds, type LocalProviderFaults, type LocalProviderFaultsInput, type LocalProviderId } from "./fault-config";
export { renderImage, type RenderedImage, type RenderImageParams } from "./render-image";
export { renderVideo, type RenderedVideo, type RenderVideoParams } from "./render-video";
