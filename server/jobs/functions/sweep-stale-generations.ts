import "server-only";
import { findModel } from "../../catalog";
import { db } from "../../base/db";
import { finishFailed } from "../../generations/run/finish-generation";
import { expireAtDeadline } from "../../generations/deadline/expire-generation";
import { resendLostFinishedEvents } from "../../generations/resend-lost-finished-events";
import { sendGenerationRequested } from "../../generations/send-generation-requested";
import { inngest } from "../../base/events/client";

// No reservation is ever orphaned (issue: sweeper): a generation still pending or processing past
// its model's timeout for every provider in its chain, plus a margin, is failed and refunded.

const MARGIN_SECONDS = 60;

const PAGE = 500;

/** In flight for longer than the margin, oldest first, every page of them: younger ones never hide older ones. */
async function* inFlightBefore(cutoff: Date) {
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows: Array<{ id: string; modelIdentifier: string; providerOrder: string[]; createdAt: Date }> = await db.generation.findMany({
      where: {
        status: { in: ["pending", "processing"] },
        createdAt: { lt: cutoff },
        ...(after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {}),
      },
      select: { id: true, modelIdentifier: true, providerOrder: true, createdAt: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: PAGE,
    });
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

export async function sweepStaleGenerations(now = new Date()) {
  const swept: string[] = [];
  for await (const row of inFlightBefore(new Date(now.getTime() - MARGIN_SECONDS * 1000))) {
    const timeout = findModel(row.modelIdentifier)?.timeoutSeconds ?? 600;
    const deadline = row.createdAt.getTime() + (timeout * Math.max(1, row.providerOrder.length) + MARGIN_SECONDS) * 1000;
    if (deadline > now.getTime()) continue;
    const result = await finishFailed({
      generationId: row.id,
      code: "ERR4001",
      errors: [
        {
          provider: row.providerOrder.join(","),
          code: "ERR4001",
          message: "No provider finished within the model's timeout.",
          failover: true,
        },
      ],
    });
    if (result.failed) swept.push(row.id);
  }
  return { swept };
}

/**
 * Generations still in flight past their Cancel-After deadline: canceled at it (ERR4006), should
 * both the deadline's own run and the generation's have missed it (lost events, a run stuck).
 */
export async function expireOverdueGenerations(now = new Date()) {
  const overdue = await db.generation.findMany({
    where: { status: { in: ["pending", "processing"] }, deadlineAt: { lte: now } },
    select: { id: true },
    take: 500,
  });
  const expired: string[] = [];
  for (const row of overdue) if ((await expireAtDeadline(row.id)).outcome === "canceled") expired.push(row.id);
  return { expired };
}

/** How long a pending generation may wait for its run before its request is sent again. */
const REQUEST_RESEND_AFTER_SECONDS = 30;

/**
 * A generation whose `generation/requested` event never left (the process died between the commit
 * and the send) is still `pending` with no attempt: its request is sent again. The event id is the
 * generation's, so a request that did leave is not run twice.
 */
export async function resendLostRequests(now = new Date()) {
  const waiting = await db.generation.findMany({
    where: { status: "pending", attempts: { none: {} }, createdAt: { lt: new Date(now.getTime() - REQUEST_RESEND_AFTER_SECONDS * 1000) } },
    select: { id: true, accountId: true },
    take: 500,
  });
  for (const row of waiting) await sendGenerationRequested(row.id, row.accountId);
  return { resent: waiting.map((row) => row.id) };
}

export const sweepStaleGenerationsFunction = inngest.createFunction(
  { id: "sweep-stale-generations", triggers: [{ cron: "* * * * *" }], retries: 1 },
  async ({ step }) => {
    const resent = await step.run("resend-lost-requests", () => resendLostRequests());
    const expired = await step.run("expire-overdue", () => expireOverdueGenerations());
    const swept = await step.run("sweep", () => sweepStaleGenerations());
    const finished = await step.run("resend-lost-finished-events", () => resendLostFinishedEvents());
    return { ...resent, ...expired, ...swept, ...finished };
  },
);
