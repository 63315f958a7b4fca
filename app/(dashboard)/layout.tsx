import { TRPCReactProvider } from "@/components/trpc/react";
import { Toaster } from "@/components/ui";

export default function DashboardRootLayout({ children }: { children: React.ReactNode }) {
  return (
    <TRPCReactProvider>
      {children}
      <Toaster />
    </TRPCReactProvider>
  );
}
