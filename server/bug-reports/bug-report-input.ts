import { z } from "zod";

// What "Report a problem" sends. The page is the browser's location.pathname + search: a path on
// this site, never another origin (no scheme, no "//host", no backslashes or whitespace).

export const MAX_BUG_DESCRIPTION_LENGTH = 5000;
export const MAX_BUG_INTENT_LENGTH = 2000;
export const MAX_BUG_PAGE_PATH_LENGTH = 2048;
export const MAX_BUG_USER_AGENT_LENGTH = 512;

const PROBE_ORIGIN = "https://darkroom.invalid";

export function isSameOriginPath(path: string): boolean {
  if (!/^\/(?![/\\])[^\s\\]*$/.test(path)) return false;
  try {
    return new URL(path, PROBE_ORIGIN).origin === PROBE_ORIGIN;
  } catch {
    return false;
  }
}

export const bugReportInput = z.object({
  description: z
    .string()
    .trim()
    .min(1, "describe the problem")
    .max(MAX_BUG_DESCRIPTION_LENGTH, `must be at most ${MAX_BUG_DESCRIPTION_LENGTH} characters`),
  intent: z
    .string()
    .trim()
    .max(MAX_BUG_INTENT_LENGTH, `must be at most ${MAX_BUG_INTENT_LENGTH} characters`)
    .optional()
    .transform((value) => value || undefined),
  pagePath: z
    .string()
    .max(MAX_BUG_PAGE_PATH_LENGTH, `must be at most ${MAX_BUG_PAGE_PATH_LENGTH} characters`)
    .refine(isSameOriginPath, "must be a path on this site, such as /dashboard/…"),
});

export type BugReportInput = z.input<typeof bugReportInput>;
