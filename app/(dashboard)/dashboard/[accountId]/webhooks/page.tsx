import { WebhooksPage } from "@/components/webhooks/webhooks-page";

export const metadata = { title: "Webhooks" };

export default function Page() {
  return <WebhooksPage />;
}
