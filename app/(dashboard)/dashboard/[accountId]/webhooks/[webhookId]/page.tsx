import { EndpointDetailPage } from "@/components/webhooks/endpoint-detail-page";

export const metadata = { title: "Webhook endpoint" };

export default async function Page({ params }: { params: Promise<{ webhookId: string }> }) {
  const { webhookId } = await params;
  return <EndpointDetailPage webhookId={webhookId} />;
}
