import { OPERATOR } from "../../../base/account-scope";
import { createWebhookEndpoint } from "../../../webhooks/create-endpoint";
import { defaultWebhookEvents, optInWebhookEvents, parseWebhookEvents, webhookEventKinds } from "../../../webhooks/event-kinds";
import { rollWebhookSecret } from "../../../webhooks/roll-secret";
import { updateWebhookEndpoint } from "../../../webhooks/update-endpoint";
import { ACTOR, list, uuidFlag, type Command } from "./command";

// Webhook endpoints from the CLI. The URL is checked against the destination rules
// (an unsafe one is ERR1001 naming the URL and the reason); the secret is printed once.

function enableCommand(enabled: boolean): Command {
  const verb = enabled ? "enable" : "disable";
  return {
    usage: `webhook:${verb} --webhook-id W`,
    required: ["webhook-id"],
    optional: [],
    prepare(flags) {
      const webhookId = uuidFlag(flags, "webhook-id");
      return async (tx) => {
        const updated = await updateWebhookEndpoint(tx, OPERATOR, { webhookId, enabled, actor: ACTOR });
        return { webhook_id: updated.webhook_id, enabled: updated.enabled };
      };
    },
  };
}

export const webhookCommands: Record<string, Command> = {
  "webhook:create": {
    usage: `webhook:create --account A --url U [--events ${webhookEventKinds.join(",")}] [--description D] (default events: ${defaultWebhookEvents.join(",")}; opt-in: ${optInWebhookEvents.join(",")})`,
    required: ["account", "url"],
    optional: ["events", "description"],
    prepare(flags) {
      const accountId = uuidFlag(flags, "account");
      const events = flags.events === undefined ? undefined : parseWebhookEvents(list(flags.events) ?? [], "events");
      const input = { accountId, url: flags.url ?? "", events, description: flags.description, actor: ACTOR };
      return async (tx) => {
        const created = await createWebhookEndpoint(tx, input);
        return { webhook_id: created.webhook_id, secret: created.secret };
      };
    },
  },
  "webhook:disable": enableCommand(false),
  "webhook:enable": enableCommand(true),
  "webhook:roll-secret": {
    usage: "webhook:roll-secret --webhook-id W",
    required: ["webhook-id"],
    optional: [],
    prepare(flags) {
      const webhookId = uuidFlag(flags, "webhook-id");
      return async (tx) => rollWebhookSecret(tx, OPERATOR, { webhookId, actor: ACTOR });
    },
  },
};
