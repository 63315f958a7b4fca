import manifestJson from "../../../public/examples/manifest.json";
import { findModel, listProviders } from "../index";
import { exampleManifestSchema, type ExampleFile, type FamilyExample } from "./example-manifest";
import { familyOf, type ModelFamily } from "./families";

// A model's example output as the Models pages show it: its family's files, with who made them.
// The manifest is validated once at load; a model outside every family, or a family without an
// entry, has no example (and fails tests/unit/catalog/examples.test.ts).

export type ExampleMedia = { url: string; width: number; height: number };

export type ModelExample = {
  family: string;
  family_name: string;
  image: ExampleMedia;
  clip: ExampleMedia | null;
  /** The model that rendered it, and the family's model it stands in for when that is another one. */
  model: string;
  model_name: string;
  stand_in_for: string | null;
  provider: string;
  provider_name: string;
  made_at: string;
};

export const exampleManifest = exampleManifestSchema.parse(manifestJson);

const providerNames = new Map<string, string>(listProviders().map((provider) => [provider.id, provider.name]));

const media = (file: ExampleFile): ExampleMedia => ({ url: `${file.path}?v=${file.sha256}`, width: file.width, height: file.height });

function shown(family: ModelFamily, example: FamilyExample): ModelExample {
  return {
    family: family.id,
    family_name: family.name,
    image: media(example.image),
    clip: example.clip ? media(example.clip) : null,
    model: example.model,
    model_name: findModel(example.model)?.name ?? example.model,
    stand_in_for: example.stand_in_for,
    provider: example.provider,
    provider_name: providerNames.get(example.provider) ?? example.provider,
    made_at: example.made_at,
  };
}

const examplesByFamily = new Map<string, ModelExample>();

export function exampleOf(identifier: string): ModelExample | null {
  const family = familyOf(identifier);
  const example = family && exampleManifest.families[family.id];
  if (!family || !example) return null;
  let found = examplesByFamily.get(family.id);
  if (!found) examplesByFamily.set(family.id, (found = shown(family, example)));
  return found;
}
