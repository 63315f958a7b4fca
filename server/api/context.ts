import "server-only";
import { currentUserId } from "../auth";
import type { TRPCContext } from "./trpc";

// The request's signed-in user, from the Auth.js session cookie.
export async function createTRPCContext(): Promise<TRPCContext> {
  return { userId: await currentUserId() };
}
