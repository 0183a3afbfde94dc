import { readFileSync } from 'node:fs';

/**
 * CPU accounting from /proc (Linux), so a figure can be read together with how much of the machine it had: the server's
 * own CPU time per request is nearly independent of noise, and the CPU other processes used during the window says how
 * noisy the window was (this machine is shared).
 */
const TICK_SECONDS = 0.01; // USER_HZ is 100 on Linux

/** utime + stime of a process, in seconds. */
function processSeconds(pid: number | 'self'): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15 overall.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_SECONDS;
}

/** Busy (non-idle, non-iowait) CPU seconds of the whole machine. */
function machineBusySeconds(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = cpu;
  return (user! + nice! + system! + irq! + softirq! + steal!) * TICK_SECONDS;
}

export interface CpuWindow {
  /** Seconds of CPU the server used per request, in microseconds. */
  serverUsPerRequest: number;
  /** Average cores busy over the window: the server, this load generator, and everything else on the machine. */
  serverCores: number;
  clientCores: number;
  otherCores: number;
}

/** Starts a window; call the returned function with the number of requests served to close it. */
export function cpuWindow(serverPid: number): (requests: number) => CpuWindow {
  const t0 = process.hrtime.bigint();
  const s0 = processSeconds(serverPid);
  const c0 = processSeconds('self');
  const m0 = machineBusySeconds();
  return (requests) => {
    const wall = Number(process.hrtime.bigint() - t0) / 1e9;
    const server = processSeconds(serverPid) - s0;
    const client = processSeconds('self') - c0;
    const machine = machineBusySeconds() - m0;
    return {
      serverUsPerRequest: requests > 0 ? (server * 1e6) / requests : NaN,
      serverCores: server / wall,
      clientCores: client / wall,
      otherCores: Math.max(0, machine - server - client) / wall,
    };
  };
}
