// Stands in for the "server-only" guard outside Next.js (vitest, the CLI).
export {};
