import { env } from "../base/env";
import { ApiError } from "../base/error-table";
import { DestinationRefused, FetchFailed } from "../base/net/fetch-failures";
import { resolveAndCheck, type Resolver } from "../base/net/resolve-and-check";

// Endpoint URLs follow the destination rules (destination-policy.ts) when saved; delivery checks them
// again (deliver.ts), because what a name resolves to can change after it was saved.

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export type WebhookNetworkOptions = {
  /** Defaults to WEBHOOK_ALLOW_LOOPBACK (development and tests only; refused in production). */
  allowLoopback?: boolean;
  /** Tests inject DNS answers; production uses the system resolver. */
  resolver?: Resolver;
};

export function webhookNetworkOptions(options: WebhookNetworkOptions = {}): { allowLoopback: boolean; resolver?: Resolver } {
  return {
    allowLoopback: options.allowLoopback ?? env().WEBHOOK_ALLOW_LOOPBACK,
    ...(options.resolver ? { resolver: options.resolver } : {}),
  };
}

function refused(url: string, reason: string, message: string): ApiError {
  return new ApiError("ERR1001", `The webhook URL ${url} is not allowed: ${message}.`, {
    url,
    reason,
    fields: [{ field: "url", message }],
  });
}

/** The URL as it will be stored (WHATWG-normalized), or ERR1001 naming the URL and the reason. */
export async function checkEndpointUrl(url: string, options: WebhookNetworkOptions = {}): Promise<string> {
  const trimmed = url.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_WEBHOOK_URL_LENGTH) {
    throw refused(trimmed, "invalid_url", `must be 1 to ${MAX_WEBHOOK_URL_LENGTH} characters`);
  }
  try {
    const checked = await resolveAndCheck(trimmed, webhookNetworkOptions(options));
    return checked.url.href;
  } catch (error) {
    if (error instanceof DestinationRefused) throw refused(trimmed, error.reason, error.message.replace(/\.$/, ""));
    if (error instanceof FetchFailed) throw refused(trimmed, "unresolvable", `its host does not resolve (${error.message})`);
    throw error;
  }
}
