import { models } from "./models";
import { providerFitProblems } from "./provider-fit";

// What is wrong with the catalog data, in words an operator can act on (`npm run cli -- catalog:check`);
// an empty list when nothing is. The data's shape, prices and defaults are checked when it loads
// (load-models.ts throws naming every problem); what remains is whether each model's options hold
// on every provider it names.

export function catalogProblems(): string[] {
  return models.flatMap((model) => providerFitProblems(model).map((problem) => `${model.identifier}: ${problem}`));
}
