"use client";

import { useMutation } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/components/trpc/react";
import { toast } from "@/components/ui";

// The three ways the page leaves for Stripe: Checkout for a plan or a pack, and the Customer
// Portal. Each asks the server for a session URL and sends the browser there; a refusal is a toast.

export function useBillingRedirect() {
  const trpc = useTRPC();
  const leaveFor = ({ url }: { url: string }) => window.location.assign(url);
  const onError = (error: unknown) => toast.error(errorMessage(error));
  const startCheckout = useMutation(trpc.billing.startCheckout.mutationOptions({ onSuccess: leaveFor, onError }));
  const buyPack = useMutation(trpc.billing.buyPack.mutationOptions({ onSuccess: leaveFor, onError }));
  const openPortal = useMutation(trpc.billing.openPortal.mutationOptions({ onSuccess: leaveFor, onError }));
  return {
    startCheckout,
    buyPack,
    openPortal,
    leaving:
      startCheckout.isPending ||
      buyPack.isPending ||
      openPortal.isPending ||
      startCheckout.isSuccess ||
      buyPack.isSuccess ||
      openPortal.isSuccess,
  };
}

export type BillingRedirect = ReturnType<typeof useBillingRedirect>;
