import { readdirSync, readFileSync } from 'node:fs';

/*
 * CPU time of the processes a server bench involves (Linux /proc): on a small machine the load
 * generator, the platform's server and the PostgreSQL backends all compete for the same cores,
 * so a bench reports what each spent per request beside its throughput.
 */

/** USER_HZ: /proc reports CPU time in ticks of 1/100 s on Linux. */
const CLOCK_TICKS = 100;

/** CPU time per request, in µs, of each process taking part (measured window only). */
export type CpuPerRequest = { bench: number; server?: number; postgres?: number };

export const totalCpu = (c: CpuPerRequest) => c.bench + (c.server ?? 0) + (c.postgres ?? 0);

/** `  CPU µs/req: bench … server … postgres … = total`, the parts a row has. */
export function cpuColumns(c: CpuPerRequest): string {
  const part = (label: string, us: number | undefined) =>
    us === undefined ? '' : ` ${label} ${us.toFixed(0)}`;
  return (
    `  CPU µs/req:${part('bench', c.bench)}${part('server', c.server)}` +
    `${part('postgres', c.postgres)} = ${totalCpu(c).toFixed(0)}`
  );
}

/**
 * User + system CPU time in µs of a process's /proc stat line (Linux), with `reaped` also that
 * of its children that have exited and been waited for.
 */
function statCpuUs(stat: string, reaped = false): number {
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  const ticks = [11, 12, ...(reaped ? [13, 14] : [])].reduce((t, i) => t + Number(fields[i]), 0);
  return (ticks * 1e6) / CLOCK_TICKS;
}

export function processCpuUs(pid: number): number {
  return statCpuUs(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/**
 * CPU time of every PostgreSQL process on this machine (the backends serving the bench), and of
 * those that have exited: a backend whose pooled connection closed while idle takes its time
 * with it, and the postmaster that reaped it counts it as its children's time.
 */
export function postgresCpuUs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes(' (postgres) ')) total += statCpuUs(stat, true);
    } catch {
      // The process ended between listing and reading.
    }
  }
  return total;
}

/** CPU time in µs of the Chromium processes this process started: its renderers, and the rest. */
export type ChromiumCpu = { renderer: number; other: number };

/**
 * CPU time of the Chromium processes descending from this process (Linux /proc): the renderers
 * (a page's main thread and its helpers), and the others, among them the browser process that
 * runs IndexedDB's backend. Less disturbed by the machine's load than the wall clock.
 */
export function chromiumCpuUs(): ChromiumCpu {
  const parentOf = new Map<number, number>();
  const chromium: { pid: number; stat: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const pid = Number(entry);
      parentOf.set(pid, Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]));
      if (stat.includes(' (chrom')) chromium.push({ pid, stat });
    } catch {
      // The process ended between listing and reading.
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) {
      if (p === process.pid) return true;
    }
    return false;
  };
  const cpu: ChromiumCpu = { renderer: 0, other: 0 };
  for (const { pid, stat } of chromium) {
    if (!ours(pid)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const renderer = cmdline.includes('--type=renderer');
    cpu[renderer ? 'renderer' : 'other'] += statCpuUs(stat);
  }
  return cpu;
}
