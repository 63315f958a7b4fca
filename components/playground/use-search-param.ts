"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";

/** One search parameter of the page (a run, a comparison) and how to set it without a scroll jump. */
export function useSearchParam(name: string): [string | null, (value: string) => void] {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const set = (value: string) => {
    const params = new URLSearchParams(searchParams);
    params.set(name, value);
    router.replace(`${pathname}?${params.toString()}`, { scroll: false });
  };
  return [searchParams.get(name), set];
}
