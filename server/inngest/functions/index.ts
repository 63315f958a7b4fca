import type { InngestFunction } from "inngest";
import { runGeneration } from "./run-generation";
import { sweepStaleGenerationsFunction } from "./sweep-stale-generations";

// Every function the app serves (app/api/inngest/route.ts) and so every function either executor
// runs. Add a new function here; nothing else registers it.

export const functions: InngestFunction.Any[] = [runGeneration, sweepStaleGenerationsFunction];
