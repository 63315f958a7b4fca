// Types of scripts/floors.mjs, for the TypeScript that calls it (the floors lint test).
export type Floor = { name: "base" | "domains" | "edge" | "jobs" | "start"; level: number; summary: string };
export const floors: Floor[];
export function floorOf(serverPath: string): Floor | null;
export function folderOf(serverPath: string): string;
export function floorReport(): { arrows: number; climbing: { from: string; to: string; files: Set<string> }[]; mutual: [string, string][] };
