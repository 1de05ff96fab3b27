// Memory of a server under load: its resident set size (RSS) from /proc (Linux), sampled while a load runs, so a
// benchmark can state how far the server grew above its idle size (e.g. a streamed export must stay flat).
import { readFileSync } from 'node:fs';

const MIB = 1024 * 1024;

/** What a benchmark reports about a server's memory: idle RSS before the load, the peak during it, the growth. */
export interface MemoryGrowth {
  /** Which process, e.g. 'bnpl'. */
  label: string;
  idleMiB: number;
  peakMiB: number;
  /** peakMiB - idleMiB. */
  growthMiB: number;
  /** How often RSS was sampled during the load, milliseconds. */
  sampleEveryMs: number;
}

/** Resident set size of a process in bytes (VmRSS in /proc/<pid>/status); undefined off Linux or once it is gone. */
export function processRssBytes(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface PeakRssWatch {
  /** Stops sampling; the highest RSS seen (bytes), or undefined when none could be read. */
  stop(): number | undefined;
}

/** Samples a process's RSS every `everyMs` until stop(), keeping the highest value. */
export function watchPeakRss(pid: number, everyMs: number): PeakRssWatch {
  let peak = processRssBytes(pid);
  const timer = setInterval(() => {
    const rss = processRssBytes(pid);
    if (rss !== undefined && (peak === undefined || rss > peak)) peak = rss;
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      const last = processRssBytes(pid);
      return last !== undefined && (peak === undefined || last > peak) ? last : peak;
    },
  };
}

/** The growth of `label` from its idle RSS to its peak (bytes in, MiB out, 0.1 MiB precision). */
export function memoryGrowth(label: string, idleBytes: number, peakBytes: number, sampleEveryMs: number): MemoryGrowth {
  const mib = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;
  return { label, idleMiB: mib(idleBytes), peakMiB: mib(peakBytes), growthMiB: mib(peakBytes - idleBytes), sampleEveryMs };
}
