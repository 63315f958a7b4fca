import { KeyDetailPage } from "@/components/keys/key-detail-page";
import { appUrl } from "@/server/env";

export const metadata = { title: "API key" };

export default async function Page({ params }: { params: Promise<{ keyId: string }> }) {
  const { keyId } = await params;
  return <KeyDetailPage keyId={keyId} apiBaseUrl={appUrl()} />;
}
