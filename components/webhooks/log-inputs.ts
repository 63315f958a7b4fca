// The inputs of the webhook log queries, shared by the cards that read them and the pages that
// prefetch their first page on the server: the same input is the same cache key, so the browser
// finds the server's answer instead of fetching it again.

import type { DeliveryStatus } from "./webhook-types";

export const RECENT_DELIVERIES = 10;
export const DELIVERIES_PAGE_SIZE = 25;
/** The webhooks page lists a few dead letters; an endpoint's page a full page of them. */
export const DEAD_LETTERS_PAGE_SIZE = { account: 10, endpoint: 25 } as const;

export function recentDeliveriesInput(accountId: string) {
  return { accountId, limit: RECENT_DELIVERIES };
}

export function endpointDeliveriesInput(accountId: string, webhookId: string, status: DeliveryStatus | undefined = undefined, offset = 0) {
  return { accountId, webhookId, status, limit: DELIVERIES_PAGE_SIZE, offset };
}

/** One endpoint's dead letters or the account's; `waitingOnly` leaves out those already replayed. */
export function deadLettersInput(
  accountId: string,
  options: { webhookId?: string; waitingOnly: boolean; pageSize: number; offset?: number },
) {
  return {
    accountId,
    webhookId: options.webhookId,
    replayed: options.waitingOnly ? false : undefined,
    limit: options.pageSize,
    offset: options.offset ?? 0,
  };
}
