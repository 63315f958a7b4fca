// The browser family of a User-Agent string, for the sign-in activity's metadata: enough to tell
// "a Firefox" from "a script" without keeping the full string (or anything that finds the device).

export type UserAgentFamily = "Edge" | "Opera" | "Chrome" | "Firefox" | "Safari" | "curl" | "other" | "unknown";

export function userAgentFamily(userAgent: string | null | undefined): UserAgentFamily {
  if (!userAgent?.trim()) return "unknown";
  // Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
  if (/\bEdg(e|A|iOS)?\//.test(userAgent)) return "Edge";
  if (/\bOPR\/|\bOpera\b/.test(userAgent)) return "Opera";
  if (/\b(Chrome|Chromium|CriOS|HeadlessChrome)\//.test(userAgent)) return "Chrome";
  if (/\b(Firefox|FxiOS)\//.test(userAgent)) return "Firefox";
  if (/\bSafari\//.test(userAgent) && /\bVersion\//.test(userAgent)) return "Safari";
  if (/^curl\//i.test(userAgent)) return "curl";
  return "other";
}
