// `npm run cli -- <command> [--flag value]`: the operator CLI (server/start/cli/main.ts) as compiled
// JavaScript, rebuilt first when a source changed (scripts/build-server.mjs), as `npm start` does.

import { buildServer, cliFile } from "./build-server.mjs";
import { pathToFileURL } from "node:url";

await buildServer();
await import(pathToFileURL(cliFile).href);
