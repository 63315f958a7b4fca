import "server-only";
import { accountScope, type AccountScope } from "../base/account-scope";
import type { Db } from "../base/db";
import type { PlanName } from "../plans/plan-limits";
import { log } from "../base/log";
import { RETENTION_BATCH_SIZE } from "./delete-in-batches";
import { purgeActivityEvents } from "./purge-activity-events";
import { purgeGenerations } from "./purge-generations";
import { purgeLedgerEntries } from "./purge-ledger-entries";
import { purgeRequestLogs } from "./purge-request-logs";
import { purgeRequestLogWeeks } from "./purge-request-log-weeks";
import { purgeSentEmails } from "./purge-sent-emails";
import { purgeGenerationEvents } from "./purge-generation-events";
import { purgeWebhookLogs } from "./purge-webhook-logs";
import { retentionCutoffs } from "./retention-windows";

// Retention by plan: for each account, by the plan it has now, everything older than the plan's
// windows is deleted, kind by kind, in bounded batches; an operator's pass (every account) also
// purges sent e-mails older than 7 days (./purge-sent-emails.ts) and drops the request log's weeks
// older than the longest window (./purge-request-log-weeks.ts). Run hourly by the `retention`
// Inngest function and on demand by `npm run cli -- retention:run [--now ISO] [--account A]`.

export type RetentionRemoved = {
  generations: number;
  files: number;
  request_logs: number;
  webhook_deliveries: number;
  webhook_attempts: number;
  dead_letters: number;
  activity_events: number;
  ledger_entries: number;
  /** Sent and failed outbox rows; only an operator's pass removes them. */
  sent_emails: number;
  /** Live-stream events past their 48 h; only an operator's pass removes them. */
  generation_events: number;
};

/** What one pass removed; `deferred`: generations kept because their files could not be deleted. */
export type RetentionTally = { accounts: number; removed: RetentionRemoved; deferred: { generations: number } };

export type RetentionOptions = { batchSize?: number };

/** A pass as of `now`; `pageSize` accounts per page. */
export type RetentionInput = RetentionOptions & { now: Date; pageSize?: number };

export const ACCOUNTS_PER_PAGE = 200;

export function emptyTally(): RetentionTally {
  return {
    accounts: 0,
    removed: {
      generations: 0,
      files: 0,
      request_logs: 0,
      webhook_deliveries: 0,
      webhook_attempts: 0,
      dead_letters: 0,
      activity_events: 0,
      ledger_entries: 0,
      sent_emails: 0,
      generation_events: 0,
    },
    deferred: { generations: 0 },
  };
}

export function addTally(into: RetentionTally, more: RetentionTally): RetentionTally {
  into.accounts += more.accounts;
  for (const kind of Object.keys(into.removed) as Array<keyof RetentionRemoved>) into.removed[kind] += more.removed[kind];
  into.deferred.generations += more.deferred.generations;
  return into;
}

/** One account's pass. Generations before ledger entries, so a just-purged generation's entries are judged without it. */
export async function purgeAccountData(
  db: Db,
  account: { id: string; plan: PlanName },
  now: Date,
  options: RetentionOptions = {},
): Promise<RetentionTally> {
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  const cutoff = retentionCutoffs(account.plan, now);
  const scope = accountScope(account.id);
  const generations = await purgeGenerations(db, scope, { cutoff: cutoff.generations, batchSize });
  const requestLogs = await purgeRequestLogs(db, scope, { cutoff: cutoff.requestLogs, batchSize });
  const webhooks = await purgeWebhookLogs(db, scope, { cutoff: cutoff.webhookLogs, batchSize });
  const activity = await purgeActivityEvents(db, scope, { cutoff: cutoff.activity, batchSize });
  const ledger = await purgeLedgerEntries(db, scope, { cutoff: cutoff.ledger, batchSize });
  return {
    accounts: 1,
    removed: {
      generations: generations.generations,
      files: generations.files,
      request_logs: requestLogs,
      webhook_deliveries: webhooks.deliveries,
      webhook_attempts: webhooks.attempts,
      dead_letters: webhooks.deadLetters,
      activity_events: activity,
      ledger_entries: ledger,
      sent_emails: 0,
      generation_events: 0,
    },
    deferred: { generations: generations.deferred },
  };
}

/**
 * One page of accounts in id order after `after` (null: from the start). `last` is the cursor for
 * the next page, null once there is none. The Inngest function runs one page per step.
 */
export async function purgeAccountPage(db: Db, scope: AccountScope, input: RetentionInput & { after: string | null }) {
  const { now, after, ...options } = input;
  const pageSize = options.pageSize ?? ACCOUNTS_PER_PAGE;
  const idFilter = "accountId" in scope ? { equals: scope.accountId } : {};
  const accounts = await db.account.findMany({
    where: { id: after === null ? idFilter : { ...idFilter, gt: after } },
    select: { id: true, plan: true },
    orderBy: { id: "asc" },
    take: pageSize,
  });
  const tally = emptyTally();
  for (const account of accounts) addTally(tally, await purgeAccountData(db, account, now, options));
  const last = accounts.length === pageSize ? (accounts[accounts.length - 1]?.id ?? null) : null;
  return { ...tally, last };
}

/** Every account of the scope (the operator: all of them), page after page. */
export async function runRetention(db: Db, scope: AccountScope, input: RetentionInput): Promise<RetentionTally & { now: string }> {
  const { now, ...options } = input;
  const tally = emptyTally();
  let after: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof purgeAccountPage>> = await purgeAccountPage(db, scope, { ...options, now, after });
    addTally(tally, page);
    after = page.last;
  } while (after !== null);
  if (!("accountId" in scope)) {
    tally.removed.request_logs += await purgeRequestLogWeeks(now);
    tally.removed.sent_emails = await purgeSentEmails(now, options.batchSize ?? RETENTION_BATCH_SIZE);
    tally.removed.generation_events = await purgeGenerationEvents(now, options.batchSize ?? RETENTION_BATCH_SIZE);
  }
  log.info("retention: pass done", { now: now.toISOString(), accounts: tally.accounts, removed: tally.removed, deferred: tally.deferred });
  return { now: now.toISOString(), ...tally };
}
