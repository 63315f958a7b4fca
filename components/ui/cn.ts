import { clsx, type ClassValue } from "clsx";
import { twMerge } from "tailwind-merge";

// twMerge lets a caller's className override a primitive's defaults (e.g. `p-0` beats `p-5`).
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
