import "server-only";
import { OPERATOR } from "../../base/account-scope";
import { db, sqlPool } from "../../base/db";
import { env } from "../../base/env";
import { RETENTION_BATCH_SIZE } from "../../retention/delete-in-batches";
import { purgeSentEmails } from "../../retention/purge-sent-emails";
import { purgeGenerationEvents } from "../../retention/purge-generation-events";
import { purgeRequestLogWeeks } from "../../retention/purge-request-log-weeks";
import { ensureRequestLogWeeksAhead } from "../../request-logs/partitions";
import { addTally, emptyTally, purgeAccountPage } from "../../retention/run-retention";
import { inngest } from "../../base/events/client";

// Hourly: retention by plan (server/retention). One clock for the whole pass, then one step per
// page of accounts, each returning only its counts and the cursor for the next page, then the
// request log's weeks older than the longest window, then sent e-mails older than 7 days.
// RETENTION_PAUSED holds it (the operator's `retention:run` still works), all but the request
// log's weeks ahead of the clock, which are made whatever happens.

export const retention = inngest.createFunction({ id: "retention", triggers: [{ cron: "23 * * * *" }], retries: 2 }, async ({ step }) => {
  await step.run("request-log-weeks-ahead", () => ensureRequestLogWeeksAhead(sqlPool(), new Date()));
  if (env().RETENTION_PAUSED) return { paused: true };
  const now = await step.run("clock", () => new Date().toISOString());
  const tally = emptyTally();
  let after: string | null = null;
  for (let page = 0; ; page += 1) {
    const done: Awaited<ReturnType<typeof purgeAccountPage>> = await step.run(`accounts-${page}`, () =>
      purgeAccountPage(db, OPERATOR, { now: new Date(now), after }),
    );
    addTally(tally, done);
    if (done.last === null) break;
    after = done.last;
  }
  tally.removed.request_logs += await step.run("request-log-weeks", () => purgeRequestLogWeeks(new Date(now)));
  tally.removed.sent_emails = await step.run("sent-emails", () => purgeSentEmails(new Date(now), RETENTION_BATCH_SIZE));
  tally.removed.generation_events = await step.run("generation-events", () => purgeGenerationEvents(new Date(now), RETENTION_BATCH_SIZE));
  return { now, ...tally };
});
