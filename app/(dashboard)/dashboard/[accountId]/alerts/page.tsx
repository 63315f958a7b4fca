import { AlertsPage } from "@/components/alerts/alerts-page";

export const metadata = { title: "Alerts" };

export default function Page() {
  return <AlertsPage />;
}
