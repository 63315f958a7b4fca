import { defineModels } from "../model-data";

// Cloudflare Workers AI: JPEG pictures, one per call (so up to four calls per generation). FLUX.1
// [schnell] there takes no size or format (1024×1024), so it is its own model rather than a third
// provider of black-forest-labs/flux-schnell, whose ratios, PNG and output count do not all hold
// here; its failover is that model on Replicate, where 1:1, JPEG and four outputs hold. Lucid
// Origin has no other host with a published schema, so it runs on Workers AI alone.

export default defineModels([
  {
    // Workers AI: $0.000053 per 512×512 tile (4) + $0.00011 per step (4) ≈ $0.00065 per picture;
    // priced at Replicate's $0.003, the failover, so no attempt sells below cost.
    identifier: "cloudflare/flux-1-schnell",
    name: "FLUX.1 [schnell] (Workers AI)",
    type: "image",
    providers: [
      { id: "cloudflare", model: "@cf/black-forest-labs/flux-1-schnell", cost: { per: "image", usd: "0.00065" } },
      { id: "replicate", model: "black-forest-labs/flux-schnell", cost: { per: "image", usd: "0.003" } },
    ],
    ratios: ["1:1"],
    formats: ["jpg"],
    max_outputs: 4,
    timeout_seconds: 60,
    price: { per: "image", usd: "0.003" },
  },
  {
    // Width and height are free (up to 2500), so every common ratio holds. Price: at most 6 tiles
    // of 512 (server/providers/cloudflare/build-cloudflare-input.ts) × $0.006996 + 4 steps × $0.000132.
    identifier: "leonardo/lucid-origin",
    name: "Lucid Origin (Workers AI)",
    type: "image",
    providers: [{ id: "cloudflare", model: "@cf/leonardo/lucid-origin", cost: { per: "image", usd: "0.042504" } }],
    ratios: ["1:1", "16:9", "9:16", "4:3", "3:4", "3:2", "2:3"],
    formats: ["jpg"],
    max_outputs: 4,
    timeout_seconds: 90,
    price: { per: "image", usd: "0.043" },
  },
]);
