import { handleProviderCallback } from "@/server/edge/http/provider-callback";

// Providers POST job results here (Replicate, fal webhooks). Signature-checked, size-limited.

export const dynamic = "force-dynamic";

export async function POST(request: Request, context: { params: Promise<{ provider: string }> }) {
  return handleProviderCallback(request, (await context.params).provider);
}
