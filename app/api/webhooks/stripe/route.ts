import { receiveStripeWebhook } from "@/server/edge/http/stripe-webhook";

// Stripe posts billing events here (signature-checked, stored once, applied by Inngest).

export const dynamic = "force-dynamic";

export async function POST(request: Request) {
  return receiveStripeWebhook(request);
}
