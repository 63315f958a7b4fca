import "server-only";
import { headers } from "next/headers";
import { currentUserId } from "../../auth";
import type { TRPCContext } from "./trpc";

// The request's signed-in user (from the Auth.js session cookie) and its User-Agent (kept with bug reports).
export async function createTRPCContext(): Promise<TRPCContext> {
  return { userId: await currentUserId(), userAgent: (await headers()).get("user-agent") };
}
