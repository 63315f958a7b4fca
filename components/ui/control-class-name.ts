// Shared by Input and Textarea so text controls look and focus identically.
export const controlClassName =
  "w-full rounded-md border border-zinc-200 bg-white px-3 text-sm text-zinc-900 shadow-xs transition-colors " +
  "placeholder:text-zinc-400 outline-none focus-visible:border-zinc-400 focus-visible:ring-2 focus-visible:ring-zinc-900/10 " +
  "disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-zinc-500 read-only:bg-zinc-50 " +
  "aria-[invalid=true]:border-red-500 aria-[invalid=true]:focus-visible:ring-red-500/15";
