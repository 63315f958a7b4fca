import { KeysPage } from "@/components/keys/keys-page";
import { appUrl } from "@/server/env";

export const metadata = { title: "API keys" };

export default function Page() {
  return <KeysPage apiBaseUrl={appUrl()} />;
}
