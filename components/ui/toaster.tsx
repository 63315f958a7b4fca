"use client";

import { Toaster as SonnerToaster, type ToasterProps } from "sonner";

// Mount once in the dashboard layout; call toast() from any client component.
export function Toaster(props: ToasterProps) {
  return <SonnerToaster position="bottom-right" richColors closeButton toastOptions={{ className: "font-sans text-sm" }} {...props} />;
}

export { toast } from "sonner";
