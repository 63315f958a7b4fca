// `npm start`: compiles the server when its sources changed (scripts/build-server.mjs, a second or
// two), then runs the compiled JavaScript in this same process: one `node`, no TypeScript loader.

import { buildServer, outFile } from "./build-server.mjs";
import { pathToFileURL } from "node:url";

await buildServer();
await import(pathToFileURL(outFile).href);
