import "server-only";
import { OPERATOR } from "../../base/account-scope";
import { db } from "../../base/db";
import { env } from "../../base/env";
import { RETENTION_BATCH_SIZE } from "../../retention/delete-in-batches";
import { purgeSentEmails } from "../../retention/purge-sent-emails";
import { purgeGenerationEvents } from "../../retention/purge-generation-events";
import { addTally, emptyTally, purgeAccountPage } from "../../retention/run-retention";
import { inngest } from "../../base/events/client";

// Hourly: retention by plan (server/retention). One clock for the whole pass, then one step per
// page of accounts, each returning only its counts and the cursor for the next page, then one for
// sent e-mails older than 7 days.
// RETENTION_PAUSED holds it (the operator's `retention:run` still works).

export const retention = inngest.createFunction({ id: "retention", triggers: [{ cron: "23 * * * *" }], retries: 2 }, async ({ step }) => {
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
  tally.removed.sent_emails = await step.run("sent-emails", () => purgeSentEmails(new Date(now), RETENTION_BATCH_SIZE));
  tally.removed.generation_events = await step.run("generation-events", () => purgeGenerationEvents(new Date(now), RETENTION_BATCH_SIZE));
  return { now, ...tally };
});
