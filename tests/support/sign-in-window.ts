import { SIGN_IN_LINK_WINDOW_SECONDS } from "@/server/auth/sign-in-link-allowance";

/** Sign-in links are counted in fixed windows: waits for the next one when fewer than `marginMs` are left of this one. */
export async function clearOfSignInWindowEdge(marginMs = 30_000): Promise<void> {
  const windowMs = SIGN_IN_LINK_WINDOW_SECONDS * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 500));
}
