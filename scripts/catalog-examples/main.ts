import path from "node:path";
import { parseArgs } from "node:util";
import { Darkroom } from "../../sdk/typescript/src/index";
import { produceExamples } from "./produce-examples";

// `npm run catalog:examples -- [--base-url URL] [--family flux,veo] [--input-image URL] [--out DIR]`
// with DARKROOM_API_KEY set: makes each family's example through the API of a running server
// (README.md beside this file).

const { values } = parseArgs({
  options: {
    "base-url": { type: "string" },
    family: { type: "string" },
    "input-image": { type: "string" },
    out: { type: "string" },
  },
  strict: true,
});

const apiKey = process.env.DARKROOM_API_KEY;
if (!apiKey) {
  console.error("Set DARKROOM_API_KEY to a key with generation:create and generation:read (npm start prints the demo key).");
  process.exit(2);
}
const client = new Darkroom({ apiKey, baseUrl: values["base-url"] ?? process.env.DARKROOM_BASE_URL ?? "http://localhost:3000" });
const outDir = path.resolve(values.out ?? path.join(import.meta.dirname, "../../public/examples"));
const only = values.family
  ?.split(",")
  .map((id) => id.trim())
  .filter(Boolean);

const result = await produceExamples({ client, outDir, only, inputImage: values["input-image"], log: (line) => console.error(line) });
console.log(JSON.stringify({ made: result.made, manifest: path.join(outDir, "manifest.json") }));
