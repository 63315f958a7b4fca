// Types of scripts/build-server.mjs, for the TypeScript that calls it (scripts/test.ts, the suites).
export const outFile: string;
export const cliFile: string;
export function buildServer(options?: { force?: boolean }): Promise<boolean>;
