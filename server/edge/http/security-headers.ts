// The security headers of every answer. Static ones (no framing, no MIME sniffing, a short
// Referer, no powerful browser features, HSTS on an https deployment) go on every answer from the
// HTTP server in front of Next (start/http-server.ts); a Content-Security-Policy too: for pages,
// one with a fresh script nonce per request (proxy.ts, Next applies the nonce to its own scripts);
// for everything that is not a page (/v1, /api, /files), one that lets the answer run nothing.

/** Two years, subdomains included: the value HSTS preload lists ask for. */
const HSTS = "max-age=63072000; includeSubDomains";

const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "bluetooth=()",
  "hid=()",
  "midi=()",
  "magnetometer=()",
  "gyroscope=()",
  "accelerometer=()",
  "display-capture=()",
  "browsing-topics=()",
].join(", ");

/** Whether the deployment's public address (APP_URL) is https. */
export function isHttpsAppUrl(appUrl: string): boolean {
  return appUrl.toLowerCase().startsWith("https://");
}

/** Headers every answer carries, page or not. */
export function securityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "strict-origin-when-cross-origin",
    "permissions-policy": PERMISSIONS_POLICY,
    ...(options.https ? { "strict-transport-security": HSTS } : {}),
  };
}

/**
 * For answers that are not pages (JSON, files): nothing in them may load or run, nor be framed.
 * Forms may post to us: Auth.js's own fallback pages under /api/auth (sign-out confirmation) are forms.
 */
export const NON_PAGE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The policy of a page. Scripts: only those carrying this request's nonce, and what they load
 * ('strict-dynamic'); Next puts the nonce on its own scripts. Styles may be inline: React's `style`
 * attributes (charts, tooltips) are inline styles. Images: an account's picture may be any https
 * URL. Development adds 'unsafe-eval' for React's dev tooling and hot reloading.
 */
export function pageContentSecurityPolicy(options: { nonce: string; https: boolean; dev: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** 128 random bits, base64: unguessable, and new for every page request. */
export function newScriptNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
