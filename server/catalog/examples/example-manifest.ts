import { z } from "zod";

// public/examples/manifest.json: for each model family, the files of its example output and how
// they were made (which model, on which provider, from which generation, when). Written by
// scripts/catalog-examples (docs/catalog.md, "Examples"); read by examples.ts.

const exampleFile = z.strictObject({
  /** Served from public/: `/examples/<family>.<ext>`. */
  path: z.string().regex(/^\/examples\/[a-z0-9-]+\.(webp|mp4)$/),
  width: z.int().positive(),
  height: z.int().positive(),
  bytes: z.int().positive(),
  /** The first 16 hex digits of the file's SHA-256: the URL's `?v=`, so a refresh is never served stale. */
  sha256: z.string().regex(/^[0-9a-f]{16}$/),
});

export const familyExampleSchema = z.strictObject({
  /** A still (the clip's first frame, for a video family). */
  image: exampleFile,
  /** Video families: a short muted clip. */
  clip: exampleFile.nullable(),
  /** The model that made it: the family's own, or the built-in one when none of the family's providers was configured. */
  model: z.string(),
  /** The family's model this example stands in for, when `model` is the built-in one; null when it is the family's own. */
  stand_in_for: z.string().nullable(),
  provider: z.string(),
  generation_id: z.string(),
  prompt: z.string(),
  made_at: z.iso.datetime(),
});

export const exampleManifestSchema = z.strictObject({
  families: z.record(z.string(), familyExampleSchema),
});

export type FamilyExample = z.infer<typeof familyExampleSchema>;
export type ExampleFile = z.infer<typeof exampleFile>;
export type ExampleManifest = z.infer<typeof exampleManifestSchema>;
