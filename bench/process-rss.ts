import fs from "node:fs";

// Resident memory of a process and its descendants (Linux /proc), leaving out PostgreSQL: the
// figure the bench reports as the server's own memory. Null where /proc is not there.

function readStat(pid: number): { ppid: number; comm: string } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const ppid = Number(stat.slice(close + 2).split(" ")[1]);
    return { ppid, comm };
  } catch {
    return null;
  }
}

function rssKb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

export function processTreeRssMb(rootPid: number): { rss_mb: number; processes: Array<{ pid: number; command: string; rss_mb: number }> } | null {
  if (!fs.existsSync("/proc/self/stat")) return null;
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = readStat(pid);
    if (!stat) continue;
    names.set(pid, stat.comm);
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid]);
  }
  const processes: Array<{ pid: number; command: string; rss_mb: number }> = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const command = names.get(pid) ?? "?";
    if (command.startsWith("postgres")) continue;
    processes.push({ pid, command, rss_mb: Math.round(rssKb(pid) / 102.4) / 10 });
    queue.push(...(children.get(pid) ?? []));
  }
  return { rss_mb: Math.round(processes.reduce((sum, entry) => sum + entry.rss_mb, 0) * 10) / 10, processes };
}
