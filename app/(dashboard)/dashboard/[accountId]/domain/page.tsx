import { CustomDomainPage } from "@/components/hostnames/custom-domain-page";

export const metadata = { title: "Custom domain" };

export default function Page() {
  return <CustomDomainPage />;
}
