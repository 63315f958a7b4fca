// What each webhook event means, in the words the "Add endpoint" form shows next to it.

export const eventDescriptions: Record<string, string> = {
  "generation.started": "A provider started working on a generation.",
  "generation.completed": "A generation succeeded and its files are ready.",
  "generation.failed": "A generation failed.",
  "generation.canceled": "A generation was canceled.",
  "credits.low_balance": "The balance dropped below a low-balance threshold.",
  "apikey.spend_alert": "An API key reached 50, 80 or 100 % of its spend limit.",
  "account.spend_alert": "The account reached 50, 80 or 100 % of its monthly spend limit.",
  "credits.auto_top_up_succeeded": "An auto top-up charged the saved card and added its credits.",
  "credits.auto_top_up_failed": "An auto top-up was declined, needs the cardholder, or was not attempted (cap, subscription).",
  "webhook.test": "Sent by “Send test event”, checked or not.",
};

/** The events an endpoint gets when it subscribes to everything but the test event. */
export const allRealEvents = [
  "generation.started",
  "generation.completed",
  "generation.failed",
  "generation.canceled",
  "credits.low_balance",
  "apikey.spend_alert",
  "account.spend_alert",
  "credits.auto_top_up_succeeded",
  "credits.auto_top_up_failed",
];

export function subscribesToAll(events: readonly string[]): boolean {
  return allRealEvents.every((event) => events.includes(event));
}

export const deadLetterReasons: Record<string, string> = {
  endpoint_disabled: "Arrived while the endpoint was disabled",
};
