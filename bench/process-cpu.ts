import fs from "node:fs";

// CPU time (user + system) of process trees, from Linux /proc: what one request costs the server
// and its PostgreSQL, a figure that holds up on a busy machine where req/s does not. Null where
// /proc is not there. Clock ticks are 100 per second on Linux. A child that exited (a PostgreSQL
// backend whose connection closed) is counted through its parent's cutime/cstime, which hold the
// CPU of the children it reaped: without them a closed connection made the sum go down.

const TICKS_PER_S = 100;

type Stat = { ppid: number; comm: string; cpuTicks: number; ownTicks: number };

function readStat(pid: number, file = `/proc/${pid}/stat`): Stat | null {
  try {
    const stat = fs.readFileSync(file, "utf8");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    // After the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]));
    return {
      ppid: Number(fields[1]),
      comm: stat.slice(stat.indexOf("(") + 1, close),
      cpuTicks: utime! + stime! + cutime! + cstime!,
      ownTicks: utime! + stime!,
    };
  } catch {
    return null;
  }
}

export type CpuSplit = { server_ms: number; postgres_ms: number };

/** CPU milliseconds so far of `rootPid`'s tree, split into PostgreSQL and the rest. */
export function processTreeCpuMs(rootPid: number): CpuSplit | null {
  if (!fs.existsSync("/proc/self/stat")) return null;
  const stats = new Map<number, Stat>();
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat) continue;
    stats.set(Number(entry), stat);
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const split = { server_ms: 0, postgres_ms: 0 };
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const stat = stats.get(pid);
    if (stat) {
      const ms = (stat.cpuTicks * 1000) / TICKS_PER_S;
      if (stat.comm.startsWith("postgres")) split.postgres_ms += ms;
      else split.server_ms += ms;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return split;
}

/** CPU used between two readings (of one tree or of several added up). */
export function cpuSince(before: CpuSplit | null, after: CpuSplit | null): CpuSplit | null {
  if (!before || !after) return null;
  return { server_ms: after.server_ms - before.server_ms, postgres_ms: after.postgres_ms - before.postgres_ms };
}

export type ThreadSplit = { main_ms: number; render_ms: number; other_ms: number };

/**
 * CPU milliseconds so far of one process by thread: its JavaScript thread, libvips's render
 * threads (named "libvips worker"), and the rest (libuv's pool, V8's GC helpers, threads that
 * exited), so a figure says whether the API or the local renderer spent it. Null without /proc.
 */
export function processThreadsCpuMs(pid: number): ThreadSplit | null {
  const whole = readStat(pid);
  if (!whole) return null;
  const split = { main_ms: 0, render_ms: 0, other_ms: 0 };
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const thread = readStat(Number(tid), `/proc/${pid}/task/${tid}/stat`);
    if (!thread) continue;
    const ms = (thread.ownTicks * 1000) / TICKS_PER_S;
    if (Number(tid) === pid) split.main_ms += ms;
    else if (thread.comm.startsWith("libvips")) split.render_ms += ms;
  }
  // A process's own utime and stime include its exited threads; its children's are not threads.
  split.other_ms = (whole.ownTicks * 1000) / TICKS_PER_S - split.main_ms - split.render_ms;
  return split;
}

/** Thread CPU used between two readings. */
export function threadsSince(before: ThreadSplit | null, after: ThreadSplit | null): ThreadSplit | null {
  if (!before || !after) return null;
  return {
    main_ms: after.main_ms - before.main_ms,
    render_ms: after.render_ms - before.render_ms,
    other_ms: after.other_ms - before.other_ms,
  };
}

/**
 * CPU milliseconds so far of an embedded PostgreSQL by process kind, from each process's title
 * ("postgres: walwriter", "postgres: autovacuum worker", a backend's "postgres: <user> <db> …"):
 * whether its CPU goes to the statements or to WAL, checkpoints and vacuum. Backends that exited
 * count under the postmaster (it reaps them).
 */
export function postgresCpuByKindMs(postmasterPid: number): Record<string, number> | null {
  const postmaster = readStat(postmasterPid);
  if (!postmaster) return null;
  const kinds: Record<string, number> = { postmaster: (postmaster.cpuTicks * 1000) / TICKS_PER_S };
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (!stat || stat.ppid !== postmasterPid) continue;
    let title = "";
    try {
      title = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    } catch {
      continue;
    }
    const kind =
      /^postgres: (checkpointer|background writer|walwriter|autovacuum launcher|autovacuum worker|logical replication launcher|io worker)/.exec(
        title,
      )?.[1] ?? "backends";
    kinds[kind] = (kinds[kind] ?? 0) + (stat.cpuTicks * 1000) / TICKS_PER_S;
  }
  return kinds;
}

/** Per-kind CPU used between two readings; a kind seen only after counts from zero. */
export function kindsSince(before: Record<string, number> | null, after: Record<string, number> | null): Record<string, number> | null {
  if (!before || !after) return null;
  return Object.fromEntries(Object.entries(after).map(([kind, ms]) => [kind, ms - (before[kind] ?? 0)]));
}
