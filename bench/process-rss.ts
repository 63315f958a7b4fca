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

/** VmRSS and its parts (anonymous: heaps and stacks; file: code and mapped files; shared memory), in kB. */
function rssKb(pid: number): { total: number; anon: number; file: number; shmem: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)\\s+kB`).exec(status)?.[1] ?? 0);
    return { total: field("VmRSS"), anon: field("RssAnon"), file: field("RssFile"), shmem: field("RssShmem") };
  } catch {
    return { total: 0, anon: 0, file: 0, shmem: 0 };
  }
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

type ProcessRss = { pid: number; command: string; rss_mb: number; anon_mb: number; file_mb: number; shmem_mb: number };

export function processTreeRssMb(rootPid: number): { rss_mb: number; processes: ProcessRss[] } | null {
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
  const processes: ProcessRss[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const command = names.get(pid) ?? "?";
    if (command.startsWith("postgres")) continue;
    const rss = rssKb(pid);
    processes.push({ pid, command, rss_mb: mb(rss.total), anon_mb: mb(rss.anon), file_mb: mb(rss.file), shmem_mb: mb(rss.shmem) });
    queue.push(...(children.get(pid) ?? []));
  }
  return { rss_mb: Math.round(processes.reduce((sum, entry) => sum + entry.rss_mb, 0) * 10) / 10, processes };
}
