import { LogsPage } from "@/components/request-logs/logs-page";

export const metadata = { title: "Logs" };

export default function Page() {
  return <LogsPage />;
}
