import type { ModelType } from "../models";

// The catalog's model families: the models that share a maker's line (FLUX, Veo, Kling…) and so
// share one example output on the Models pages. Every model of the catalog is in exactly one
// family, of its own type (tests/unit/catalog/examples.test.ts); the first model listed is the one
// the example is made with when one of its providers is configured (docs/catalog.md, "Examples").

export type ModelFamily = {
  id: string;
  name: string;
  type: ModelType;
  /** What the example shows: the same prompt for every run, so a refresh is comparable. */
  prompt: string;
  models: readonly [string, ...string[]];
};

const image = (id: string, name: string, prompt: string, ...models: [string, ...string[]]): ModelFamily => ({
  id,
  name,
  type: "image",
  prompt,
  models,
});
const video = (id: string, name: string, prompt: string, ...models: [string, ...string[]]): ModelFamily => ({
  id,
  name,
  type: "video",
  prompt,
  models,
});

export const modelFamilies: readonly ModelFamily[] = [
  image("lumen-image", "Lumen Image", "a brass lighthouse on a basalt cliff at dusk", "darkroom/lumen-image"),
  video("lumen-video", "Lumen Video", "slow drift over a night harbour with lanterns", "darkroom/lumen-video"),
  image(
    "flux",
    "FLUX",
    "a red fox in fresh snow, morning light",
    "black-forest-labs/flux-schnell",
    "black-forest-labs/flux-1.1-pro",
    "black-forest-labs/flux-1.1-pro-ultra",
    "black-forest-labs/flux-kontext-pro",
    "black-forest-labs/flux-kontext-max",
    "black-forest-labs/flux-dev",
    "black-forest-labs/flux-krea-dev",
    "black-forest-labs/flux-pro",
    "black-forest-labs/flux-kontext-dev",
    "cloudflare/flux-1-schnell",
  ),
  image("gpt-image", "GPT Image", "a ceramic teapot shaped like a snail, studio photo", "openai/gpt-image-1", "openai/gpt-image-1-mini"),
  image("dall-e", "DALL·E", "an astronaut reading in a hammock between two moons", "openai/dall-e-3", "openai/dall-e-2"),
  video("sora", "Sora", "paper boats sailing down a rainy city street", "openai/sora-2", "openai/sora-2-pro"),
  image(
    "imagen",
    "Imagen",
    "a bowl of ramen on a wooden counter, steam rising",
    "google/imagen-4",
    "google/imagen-4-fast",
    "google/imagen-4-ultra",
    "google/imagen-3",
  ),
  image("gemini-image", "Gemini Image", "a watercolour map of an imaginary island", "google/gemini-2.5-flash-image"),
  video(
    "veo",
    "Veo",
    "waves rolling onto a black sand beach at sunset",
    "google/veo-3",
    "google/veo-3-fast",
    "google/veo-3-fast-image-to-video",
    "google/veo-3.1",
    "google/veo-3.1-fast",
    "google/veo-2",
    "google/veo-2-image-to-video",
  ),
  video(
    "kling",
    "Kling",
    "a kite surfer jumping over a turquoise wave",
    "kwaivgi/kling-v2.1",
    "kwaivgi/kling-v1.6-standard",
    "kwaivgi/kling-v1.6-standard-i2v",
    "kwaivgi/kling-v1.6-pro",
    "kwaivgi/kling-v2.0",
    "kwaivgi/kling-v2.0-i2v",
    "kwaivgi/kling-v2.1-master",
    "kwaivgi/kling-v2.1-master-i2v",
    "kwaivgi/kling-v2.5-turbo-pro",
    "kwaivgi/kling-v2.5-turbo-pro-i2v",
  ),
  image("minimax-image", "MiniMax Image", "a bonsai tree inside a glass light bulb", "minimax/image-01"),
  video(
    "hailuo",
    "Hailuo",
    "a hot air balloon rising over misty hills",
    "minimax/hailuo-02",
    "minimax/hailuo-2.3",
    "minimax/hailuo-02-pro",
  ),
  video(
    "minimax-video",
    "MiniMax Video-01",
    "a cat chasing fireflies in a summer garden",
    "minimax/video-01",
    "minimax/video-01-director",
    "minimax/i2v-01",
    "minimax/i2v-01-director",
  ),
  image("runway-image", "Runway Gen-4 Image", "a neon-lit noodle stall in the rain", "runway/gen4-image", "runway/gen4-image-turbo"),
  video("runway", "Runway", "a drone shot along a winding mountain road", "runway/gen4-turbo", "runway/gen4-aleph", "runway/gen3a-turbo"),
  image("lucid-origin", "Lucid Origin", "a vintage travel poster of a desert observatory", "leonardo/lucid-origin"),
  image("qwen-image", "Qwen-Image", "a shop sign that reads FRESH BREAD in hand lettering", "qwen/qwen-image", "qwen/qwen-image-edit"),
  image(
    "wan-image",
    "Wan Image",
    "a koi pond seen from above, autumn leaves",
    "alibaba/wan-2.2-t2i-flash",
    "alibaba/wan-2.2-t2i-plus",
    "alibaba/wan-2.1-t2i-turbo",
    "alibaba/wan-2.1-t2i-plus",
  ),
  video(
    "wan",
    "Wan",
    "a paper lantern floating up into a starry sky",
    "alibaba/wan-2.2-plus",
    "alibaba/wan-2.1-turbo",
    "alibaba/wan-2.1-plus",
    "alibaba/wan-2.5-preview",
    "alibaba/wan-2.5-preview-image-to-video",
    "alibaba/wan-2.2-a14b",
    "alibaba/wan-2.2-a14b-image-to-video",
  ),
  image("seedream", "Seedream", "a glass greenhouse full of orchids at noon", "bytedance/seedream-4", "bytedance/seedream-3"),
  image("seededit", "SeedEdit", "the same street, repainted in pastel colours", "bytedance/seededit-3"),
  video("seedance", "Seedance", "a dancer spinning in a field of tall grass", "bytedance/seedance-1-pro", "bytedance/seedance-1-lite"),
  image(
    "ideogram",
    "Ideogram",
    "a typographic poster that reads NIGHT MARKET",
    "ideogram-ai/ideogram-v3-turbo",
    "ideogram-ai/ideogram-v3-balanced",
    "ideogram-ai/ideogram-v3-quality",
    "ideogram-ai/ideogram-v2",
    "ideogram-ai/ideogram-v2-turbo",
    "ideogram-ai/ideogram-v2a",
    "ideogram-ai/ideogram-v2a-turbo",
  ),
  image(
    "recraft",
    "Recraft",
    "a flat vector icon set of weather symbols",
    "recraft-ai/recraft-v3",
    "recraft-ai/recraft-20b",
    "recraft-ai/recraft-v4",
    "recraft-ai/recraft-v4-pro",
  ),
  image(
    "stable-diffusion",
    "Stable Diffusion",
    "a cosy reading nook with a rain-streaked window",
    "stability-ai/stable-diffusion-3.5-large",
    "stability-ai/stable-diffusion-3.5-large-turbo",
    "stability-ai/stable-diffusion-3.5-medium",
  ),
  image("hidream", "HiDream", "a porcelain dragon curled around a teacup", "hidream-ai/hidream-i1-full", "hidream-ai/hidream-i1-fast"),
  video(
    "luma-ray",
    "Luma Ray",
    "a train crossing a snowy viaduct at twilight",
    "luma/ray-2-720p",
    "luma/ray-2-720p-i2v",
    "luma/ray-2-540p",
    "luma/ray-flash-2-720p",
    "luma/ray-flash-2-720p-i2v",
    "luma/ray-flash-2-540p",
  ),
  image("luma-photon", "Luma Photon", "a macro photo of dew on a spider web", "luma/photon", "luma/photon-flash"),
  video(
    "pixverse",
    "PixVerse",
    "a skateboarder rolling through a sunny plaza",
    "pixverse/pixverse-v4-fast",
    "pixverse/pixverse-v4.5-fast-i2v",
  ),
  video("hunyuan-video", "HunyuanVideo", "clouds racing over a mountain lake", "tencent/hunyuan-video-i2v"),
];

const familyOfModel = new Map(modelFamilies.flatMap((family) => family.models.map((identifier) => [identifier, family] as const)));

export function familyOf(identifier: string): ModelFamily | undefined {
  return familyOfModel.get(identifier);
}
