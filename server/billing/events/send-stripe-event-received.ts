import "server-only";
import { inngest } from "../../base/events/client";
import { stripeEventReceived } from "../../base/events/definitions";

/** The first send uses the event's own id; each sweep re-send has one per resend count, so nothing runs twice. */
export async function sendStripeEventReceived(stripeEventId: string, resend: number) {
  const id = resend === 0 ? `stripe-event:${stripeEventId}` : `stripe-event:${stripeEventId}:resend:${resend}`;
  await inngest.send(stripeEventReceived.create({ stripeEventId }, { id }));
}
