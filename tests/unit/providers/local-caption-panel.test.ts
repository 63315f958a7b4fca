import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { backgroundSvg } from "@/server/providers/local/background";
import { captionPanel, captionSvg } from "@/server/providers/local/caption";
import { imageSize } from "@/server/providers/local/frame-size";
import { seededRandom, seedFrom } from "@/server/providers/local/seeded-random";

// The image renderer lays the caption as a panel-sized layer (rasterizing a full-frame transparent
// layer cost as much as the background). It must give the very pixels the full-frame layer gave.

const prompts = ["a cat", "a very long prompt that wraps onto several lines ".repeat(12), "ünïcödé 日本 🎉 mixed", "x"];

describe("the caption panel layer", () => {
  for (const ratio of ["1:1", "16:9", "9:16", "21:9"]) {
    it(`composites to the same pixels as the full-frame caption at ${ratio}`, async () => {
      const size = imageSize(ratio, undefined);
      for (const prompt of prompts) {
        const background = Buffer.from(backgroundSvg(seededRandom(seedFrom("image", prompt, 7, 0)), size.width, size.height));
        const fullFrame = await sharp(background)
          .composite([{ input: Buffer.from(captionSvg(prompt, size.width, size.height)) }])
          .raw()
          .toBuffer();
        const panel = captionPanel(prompt, size.width, size.height)!;
        expect(panel.left + panel.top).toBeGreaterThan(0);
        const cropped = await sharp(background)
          .composite([{ input: Buffer.from(panel.svg), left: panel.left, top: panel.top }])
          .raw()
          .toBuffer();
        expect(cropped.equals(fullFrame), `${ratio} "${prompt.slice(0, 20)}"`).toBe(true);
      }
    });
  }

  it("is absent for an empty prompt", () => {
    expect(captionPanel("   ", 1024, 1024)).toBeNull();
  });
});
