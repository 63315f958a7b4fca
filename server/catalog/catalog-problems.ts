import { models } from "./models";
import { providerIds } from "./providers";

// What is wrong with the catalog data, in words an operator can act on (`npm run cli -- catalog:check`);
// an empty list when nothing is.

export function catalogProblems(): string[] {
  const known = new Set<string>(providerIds);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const model of models) {
    if (seen.has(model.identifier)) problems.push(`${model.identifier}: the identifier is used by more than one model`);
    seen.add(model.identifier);
    for (const provider of model.providers) {
      if (!known.has(provider)) problems.push(`${model.identifier}: provider "${provider}" is not a known provider`);
      else if (!model.providerModelIds[provider]?.trim()) problems.push(`${model.identifier}: no provider model id for ${provider}`);
    }
  }
  return problems;
}
