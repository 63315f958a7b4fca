import "server-only";
import { z } from "zod";
import { db } from "../../../base/db";
import { createWebhookEndpoint, MAX_WEBHOOK_DESCRIPTION_LENGTH } from "../../../webhooks/create-endpoint";
import { deleteWebhookEndpoint } from "../../../webhooks/delete-endpoint";
import { toWebhookEndpointRecord } from "../../../webhooks/endpoint-record";
import { webhookEndpointStats } from "../../../webhooks/endpoint-stats";
import { MAX_WEBHOOK_URL_LENGTH } from "../../../webhooks/endpoint-url";
import { defaultWebhookEvents, optInWebhookEvents, webhookEventKinds } from "../../../webhooks/event-kinds";
import { findWebhookEndpoint } from "../../../webhooks/find-endpoint";
import { getWebhookDelivery } from "../../../webhooks/get-delivery";
import { deadLetterFilters, listDeadLetters } from "../../../webhooks/list-dead-letters";
import { listWebhookDeliveries, webhookDeliveryFilters } from "../../../webhooks/list-deliveries";
import { listWebhookEndpoints } from "../../../webhooks/list-endpoints";
import { queueDeadLetterReplay } from "../../../webhooks/replay-dead-letter";
import { queueResend, requestResend } from "../../../webhooks/resend-delivery";
import { rollWebhookSecret } from "../../../webhooks/roll-secret";
import { queueTestEvent } from "../../../webhooks/send-test-event";
import { sampleGenerationRecord } from "../../../generations/records/sample-record";
import { updateWebhookEndpoint } from "../../../webhooks/update-endpoint";
import { createTRPCRouter, memberProcedure, ownerProcedure } from "../trpc";
import { inTransaction } from "../../../base/transaction";

// Webhook endpoints, their delivery log and dead letters (issue: "managed from the dashboard,
// owners only; members read"). Every call is scoped to the caller's account: another account's
// ids are ERR1006, malformed ones too (the domain functions check them, never a 500).

/** Any id: the domain answers ERR1006 for one that is malformed or not this account's. */
const id = z.string().max(100);

const webhookInput = z.object({ webhookId: id });

export const webhooksRouter = createTRPCRouter({
  eventKinds: memberProcedure.query(() =>
    webhookEventKinds.map((event) => ({
      event,
      default: defaultWebhookEvents.includes(event),
      opt_in: optInWebhookEvents.includes(event),
    })),
  ),

  list: memberProcedure.query(async ({ ctx }) => {
    const [endpoints, stats] = await Promise.all([listWebhookEndpoints(db, ctx.membership.accountId), webhookEndpointStats(db, ctx.scope)]);
    const statsById = new Map(stats.map((entry) => [entry.webhook_id, entry]));
    return endpoints.map((endpoint) => ({
      ...endpoint,
      stats: statsById.get(endpoint.webhook_id) ?? {
        webhook_id: endpoint.webhook_id,
        last_24h: { delivered: 0, failed: 0, pending: 0 },
        last_delivery_at: null,
      },
    }));
  }),

  get: memberProcedure
    .input(webhookInput)
    .query(async ({ ctx, input }) => toWebhookEndpointRecord(await findWebhookEndpoint(db, ctx.scope, input.webhookId))),

  deliveries: memberProcedure.input(webhookDeliveryFilters).query(({ ctx, input }) => listWebhookDeliveries(db, ctx.scope, input)),

  delivery: memberProcedure
    .input(z.object({ deliveryId: id }))
    .query(({ ctx, input }) => getWebhookDelivery(db, ctx.scope, { deliveryId: input.deliveryId })),

  deadLetters: memberProcedure.input(deadLetterFilters).query(({ ctx, input }) => listDeadLetters(db, ctx.scope, input)),

  /** The endpoint with its signing secret: the only time the secret is shown. */
  create: ownerProcedure
    .input(
      z.object({
        url: z.string().max(MAX_WEBHOOK_URL_LENGTH),
        events: z.array(z.string().max(64)).max(20).optional(),
        description: z.string().max(MAX_WEBHOOK_DESCRIPTION_LENGTH).nullish(),
      }),
    )
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        createWebhookEndpoint(tx, {
          url: input.url,
          events: input.events,
          description: input.description,
          accountId: ctx.membership.accountId,
          actor: ctx.userId,
        }),
      ),
    ),

  setEnabled: ownerProcedure
    .input(z.object({ webhookId: id, enabled: z.boolean() }))
    .mutation(({ ctx, input }) => inTransaction((tx) => updateWebhookEndpoint(tx, ctx.scope, { ...input, actor: ctx.userId }))),

  rollSecret: ownerProcedure
    .input(webhookInput)
    .mutation(({ ctx, input }) =>
      inTransaction((tx) => rollWebhookSecret(tx, ctx.scope, { webhookId: input.webhookId, actor: ctx.userId })),
    ),

  sendTest: ownerProcedure.input(webhookInput).mutation(({ ctx, input }) =>
    inTransaction((tx) =>
      queueTestEvent(tx, ctx.scope, {
        webhookId: input.webhookId,
        actor: ctx.userId,
        sample: sampleGenerationRecord(ctx.membership.accountId),
      }),
    ),
  ),

  /** The switch commits first; a run that cannot be requested puts it back to failed and answers the error. */
  resendDelivery: ownerProcedure.input(z.object({ deliveryId: id })).mutation(async ({ ctx, input }) => {
    const resent = await inTransaction((tx) => queueResend(tx, ctx.scope, { deliveryId: input.deliveryId, actor: ctx.userId }));
    return requestResend(db, resent);
  }),

  replayDeadLetter: ownerProcedure
    .input(z.object({ deadLetterId: id }))
    .mutation(({ ctx, input }) =>
      inTransaction((tx) => queueDeadLetterReplay(tx, ctx.scope, { deadLetterId: input.deadLetterId, actor: ctx.userId })),
    ),

  delete: ownerProcedure
    .input(webhookInput)
    .mutation(({ ctx, input }) =>
      inTransaction((tx) =>
        deleteWebhookEndpoint(tx, { webhookId: input.webhookId, accountId: ctx.membership.accountId, actor: ctx.userId }),
      ),
    ),
});
