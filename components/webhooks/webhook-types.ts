import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/edge/api/root";

// The shapes the webhooks router answers with, as the dashboard components use them.

type WebhookOutputs = inferRouterOutputs<AppRouter>["webhooks"];

export type WebhookEndpointListItem = WebhookOutputs["list"][number];
export type WebhookEndpointRecord = WebhookOutputs["get"];
export type WebhookDeliveryRow = WebhookOutputs["deliveries"]["data"][number];
export type WebhookDeliveryDetail = WebhookOutputs["delivery"];
export type WebhookDeliveryAttempt = WebhookDeliveryDetail["attempts"][number];
export type DeadLetterRow = WebhookOutputs["deadLetters"]["data"][number];
export type DeliveryStatus = WebhookDeliveryRow["status"];
