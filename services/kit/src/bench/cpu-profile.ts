// Where a server spent its CPU, from the .cpuprofile Node writes with --cpu-prof: self time per function and per
// package (node_modules/<package>, our own source, Node internals, garbage collection). Pure, so it is unit-tested.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}

/** The parts of Chrome DevTools' CPU profile format this reads. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface CpuShare {
  name: string;
  /** Milliseconds of self time. */
  selfMs: number;
  /** Share of the busy (non-idle) time, 0..100. */
  percent: number;
}

export interface CpuProfileSummary {
  /** Wall time the profile covers, milliseconds. */
  totalMs: number;
  /** Time the process was not idle, milliseconds. */
  busyMs: number;
  functions: CpuShare[];
  packages: CpuShare[];
}

const IDLE = '(idle)';

/** The package a script belongs to: `<pkg>` under node_modules, `node:internal`, our workspace folder, or the frame's own name. */
export function packageOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node (internal)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const workspace = /\/((?:services|workflows|gateway|schema)\/[^/]+|workflows|gateway|schema)\//.exec(url);
  return workspace ? workspace[1]! : url;
}

function shares(selfMs: Map<string, number>, busyMs: number, top: number): CpuShare[] {
  return [...selfMs]
    .map(([name, ms]) => ({ name, selfMs: ms, percent: busyMs > 0 ? (100 * ms) / busyMs : 0 }))
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top);
}

export function summarizeCpuProfile(profile: CpuProfile, top = 15): CpuProfileSummary {
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const hits = new Map<number, number>();
  if (profile.samples?.length) for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  else for (const node of profile.nodes) hits.set(node.id, node.hitCount ?? 0);
  const totalHits = [...hits.values()].reduce((sum, count) => sum + count, 0);
  const msPerHit = totalHits > 0 ? totalMs / totalHits : 0;
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let busyMs = 0;
  for (const node of profile.nodes) {
    const ms = (hits.get(node.id) ?? 0) * msPerHit;
    if (ms === 0 || node.callFrame.functionName === IDLE) continue;
    busyMs += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? ` ${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(services|workflows)\//, '$1/')}:${lineNumber + 1}` : '';
    const fn = `${functionName || '(anonymous)'}${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    const pkg = packageOf(node.callFrame);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
  }
  return { totalMs, busyMs, functions: shares(byFunction, busyMs, top), packages: shares(byPackage, busyMs, top) };
}
