import { appUrl } from "../base/env";

// Where Stripe's hosted pages send the browser back: the account's billing page.

export function billingPageUrl(accountId: string, query = ""): string {
  return `${appUrl()}/dashboard/${accountId}/billing${query ? `?${query}` : ""}`;
}
