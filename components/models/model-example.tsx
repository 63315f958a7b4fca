import { cn } from "@/components/ui";
import type { ModelExample } from "./model-types";

// A model's example output: its family's still on a card, the clip (or still) on the model page,
// always said for what it is: which model and provider rendered it, and whether it stands in for
// the family's own model (docs/catalog.md, "Examples"). Width and height keep the layout still.

/** "rendered by Darkroom Local (Lumen Image, standing in for FLUX)". */
export function renderedBy(example: ModelExample): string {
  const by = example.stand_in_for ? `${example.model_name}, standing in for ${example.family_name}` : example.model_name;
  return `rendered by ${example.provider_name} (${by})`;
}

function altText(example: ModelExample, modelName: string): string {
  return `Example output for ${modelName} (${example.family_name} family), ${renderedBy(example)}`;
}

export function ModelExampleThumbnail({ example, modelName, className }: { example: ModelExample; modelName: string; className?: string }) {
  return (
    <figure className={cn("overflow-hidden bg-zinc-100", className)} data-example={example.family}>
      {/* eslint-disable-next-line @next/next/no-img-element -- a static file of public/, already card-sized */}
      <img
        src={example.image.url}
        width={example.image.width}
        height={example.image.height}
        alt={altText(example, modelName)}
        loading="lazy"
        decoding="async"
        className="aspect-video w-full object-cover"
      />
      <figcaption className="truncate border-t border-zinc-200 bg-white/90 px-3 py-1 text-[11px] text-zinc-500">
        Example · {example.stand_in_for ? `${example.model_name} stand-in` : example.provider_name}
      </figcaption>
    </figure>
  );
}

export function ModelExampleFigure({ example, modelName }: { example: ModelExample; modelName: string }) {
  const alt = altText(example, modelName);
  return (
    <figure
      className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs"
      data-example={example.family}
      aria-labelledby="model-example-caption"
    >
      <div className="bg-zinc-100">
        {example.clip ? (
          <video
            src={example.clip.url}
            poster={example.image.url}
            width={example.clip.width}
            height={example.clip.height}
            aria-label={alt}
            muted
            loop
            playsInline
            controls
            preload="none"
            className="mx-auto block aspect-video w-full max-w-[640px] object-contain"
          />
        ) : (
          // eslint-disable-next-line @next/next/no-img-element -- a static file of public/, already card-sized
          <img
            src={example.image.url}
            width={example.image.width}
            height={example.image.height}
            alt={alt}
            loading="lazy"
            decoding="async"
            className="mx-auto block aspect-video w-full max-w-[640px] object-contain"
          />
        )}
      </div>
      <figcaption id="model-example-caption" className="space-y-0.5 border-t border-zinc-200 px-5 py-3 text-xs text-zinc-500">
        <p className="font-medium text-zinc-700">Example output · {renderedBy(example)}</p>
        {example.stand_in_for && (
          <p>
            No {example.family_name} provider was configured when it was made: the built-in model drew the family&apos;s prompt instead. A
            refresh with a provider configured replaces it with the family&apos;s own output.
          </p>
        )}
      </figcaption>
    </figure>
  );
}
