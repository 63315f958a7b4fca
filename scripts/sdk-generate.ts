import fs from "node:fs";
import path from "node:path";
import { generateSdkFiles } from "./sdk/generate";

// `npm run sdk:generate`: rewrites the SDKs' generated files from the OpenAPI document built in-process.

const root = path.resolve(import.meta.dirname, "..");
const files = await generateSdkFiles();
for (const [file, content] of Object.entries(files)) {
  const target = path.join(root, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const before = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
  fs.writeFileSync(target, content);
  console.log(`${before === content ? "unchanged" : "written"}  ${file}`);
}
