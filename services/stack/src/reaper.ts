// Watchdog that outlives the runner. The runner tells it (over an IPC channel) which process groups it
// started; if the channel closes while any are still tracked — the runner was killed with SIGKILL,
// crashed, or its terminal went away — the reaper stops them in the runner's order (services, then
// Temporal, then PostgreSQL with a clean fast shutdown) and exits. A clean runner untracks everything
// before disconnecting, so the reaper then exits without touching anything.
// Node built-ins only, erasable TypeScript only: Node 24 runs this file directly from src in tests.

interface Tracked {
  pid: number;
  group: boolean;
  signal: NodeJS.Signals;
  tier: number;
  graceMs: number;
}

export type ReaperMessage =
  | ({ op: 'track' } & Tracked)
  | { op: 'untrack'; pid: number };

const tracked = new Map<number, Tracked>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(entry: Tracked, sig: NodeJS.Signals): void {
  try {
    process.kill(entry.group ? -entry.pid : entry.pid, sig);
  } catch {
    // already gone
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function waitGone(entries: Tracked[], ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && entries.some((e) => alive(e.pid))) await sleep(100);
}

async function reap(): Promise<void> {
  const tiers = [...new Set([...tracked.values()].map((e) => e.tier))].sort((a, b) => a - b);
  for (const tier of tiers) {
    const entries = [...tracked.values()].filter((e) => e.tier === tier);
    for (const entry of entries) signal(entry, entry.signal);
    await waitGone(entries, Math.max(...entries.map((e) => e.graceMs)));
    for (const entry of entries) {
      // A PostgreSQL postmaster that ignored a fast shutdown gets an immediate one (still crash-safe).
      signal(entry, alive(entry.pid) ? (entry.signal === 'SIGINT' ? 'SIGQUIT' : 'SIGKILL') : 'SIGKILL');
    }
    await waitGone(entries, 5000);
    for (const entry of entries) if (entry.group) signal(entry, 'SIGKILL');
  }
  process.exit(0);
}

process.on('message', (raw: unknown) => {
  const message = raw as ReaperMessage;
  if (message.op === 'track') tracked.set(message.pid, message);
  else if (message.op === 'untrack') tracked.delete(message.pid);
});
process.on('disconnect', () => {
  if (tracked.size === 0) process.exit(0);
  void reap();
});
// The reaper must never die from the terminal's signals: it only acts when the runner is gone.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => undefined);
