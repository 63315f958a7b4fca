import path from "node:path";

// The app's two entries as `npm start` and `npm run cli` run them: plain `node` on compiled
// JavaScript (.build/, rebuilt by these scripts when a source changed; `npm test` builds it before
// any suite runs, so parallel processes never race to rebuild). No TypeScript loader per process.

const root = path.resolve(import.meta.dirname, "../..");

export const startScript = path.join(root, "scripts", "start.mjs");
export const cliScript = path.join(root, "scripts", "cli.mjs");
