// @tributary/kit/bench against real local servers: autocannon's load is counted by status, a refused request stops a
// benchmark before any load, every request can carry its own body, and servers under test run (and are profiled) in
// their own processes. Short real runs; no figure is asserted, only what was counted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BENCH_CPU_PROF_DIR_ENV,
  BenchRequestRefused,
  BenchServerPortTakenError,
  cpuProfileFlags,
  httpLoadRunner,
  invalidReasons,
  measureHttp,
  measureSideBySide,
  processCpuMs,
  startBenchServer,
  summarizeCpuProfile,
  type CpuProfile,
} from '../src/bench/index.js';
import { freeLoopbackPort } from '../src/http/ports.js';
import { occupyLoopbackPort, type OccupiedPort } from '../src/testing/index.js';

let server: Server;
let url: string;
const received: Record<string, unknown[]> = { ok: [], flaky: [], refused: [] };
let answered2xx = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const kind = req.url!.slice(1);
      const list = received[kind]!;
      list.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'));
      const status = kind === 'refused' ? 422 : kind === 'flaky' && list.length % 3 === 0 ? 500 : 201;
      if (status === 201) answered2xx += 1;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status, why: 'amount_cents is out of range' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('measureHttp', () => {
  it('counts 2xx responses and sends every request its own body', async () => {
    const m = await measureHttp({ url: `${url}/ok`, connections: 2, durationSeconds: 1, bodyFor: (n) => ({ n }) });
    expect(m.operations).toBeGreaterThan(0);
    // Responses still in flight when the run ends are answered by the server but not counted.
    expect(m.operations).toBeLessThanOrEqual(answered2xx);
    expect(m.failures).toEqual({ non2xx: 0, statusCodes: {}, errors: 0, timeouts: 0 });
    expect(invalidReasons(m)).toEqual([]);
    const sequences = received['ok']!.map((body) => (body as { n: number }).n);
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(sequences[0]).toBe(0);
  });

  it('reports non-2xx responses by status, which makes the measurement invalid', async () => {
    const m = await measureHttp({ label: 'flaky', url: `${url}/flaky`, connections: 2, durationSeconds: 1, body: { same: true } });
    expect(m.failures.statusCodes['500']).toBeGreaterThan(0);
    expect(m.failures.non2xx).toBe(m.failures.statusCodes['500']);
    expect(invalidReasons(m)[0]).toMatch(/^flaky: \d+ non-2xx responses \(\d+× 500\)$/);
    expect(received['flaky']!.every((body) => (body as { same: boolean }).same)).toBe(true);
  });

  it('stops before any load when the request is refused, showing the answer', async () => {
    const measuring = measureHttp({ label: 'refused', url: `${url}/refused`, connections: 2, durationSeconds: 1, body: {} });
    await expect(measuring).rejects.toThrow(BenchRequestRefused);
    await expect(measuring).rejects.toThrow('refused: the benchmark\'s request was answered 422, not 2xx: {"status":422,"why":"amount_cents is out of range"}');
    expect(received['refused']).toHaveLength(1);
  });
});

describe('measureSideBySide', () => {
  it('warms both sides, alternates rounds and counts the servers\' CPU time (Linux)', async () => {
    const lines: string[] = [];
    // Both "servers" are this process: what matters here is the bookkeeping, not the figures.
    const side = (label: string) => httpLoadRunner(label, { url: `${url}/ok`, body: {} }, [{ pid: process.pid }]);
    const measured = await measureSideBySide({ ours: side('A'), baseline: side('B') }, { connections: 2, durationSeconds: 1, warmupSeconds: 1, rounds: 2 }, (line) => lines.push(line));
    expect(lines.map((line) => line.replace(/: \d+ req\/s$/, ''))).toEqual(['warmup A (1s)', 'warmup B (1s)', 'round 1/2 A', 'round 1/2 B', 'round 2/2 B', 'round 2/2 A']);
    expect(measured.ours.runs).toHaveLength(2);
    expect(measured.comparison.throughputByRound).toHaveLength(2);
    expect(measured.comparison.throughput).toBeCloseTo(measured.ours.throughput / measured.baseline.throughput);
    if (process.platform === 'linux') {
      expect(measured.ours.cpuMsPerOperation).toBeGreaterThan(0);
      expect(measured.comparison.cpuPerOperation).toBeGreaterThan(0);
    } else {
      expect(measured.ours.cpuMsPerOperation).toBeUndefined();
    }
  });

  it('reads a process\'s CPU time from /proc on Linux, and nothing for a process that does not exist', () => {
    const before = processCpuMs(process.pid);
    if (process.platform === 'linux') {
      let spin = 0;
      for (let i = 0; i < 3e7; i += 1) spin += i % 7;
      expect(spin).toBeGreaterThan(0);
      expect(processCpuMs(process.pid)!).toBeGreaterThan(before!);
    } else {
      expect(before).toBeUndefined();
    }
    expect(processCpuMs(2 ** 22 + 12345)).toBeUndefined();
  });
});

describe('startBenchServer', () => {
  const script = fileURLToPath(new URL('./fixtures/bench-server.mjs', import.meta.url));
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bench-server-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the server in its own process until stopped', async () => {
    const started = await startBenchServer({ name: 'fixture', script });
    expect(await (await fetch(started.url)).text()).toBe('ok');
    await started.stop();
    await expect(fetch(started.url)).rejects.toThrow();
  });

  it('fails with the log of a server that does not come up', async () => {
    await expect(startBenchServer({ name: 'failing', script, env: { FAIL: 'no database' } })).rejects.toThrow(/failing did not start answering[\s\S]*refusing to start: no database/);
  });

  describe('a port taken before the server binds it', () => {
    let occupied: OccupiedPort;
    let taken: number;
    beforeAll(async () => {
      occupied = await occupyLoopbackPort();
      taken = occupied.port;
    });
    afterAll(async () => {
      await occupied.release();
    });

    it('starts the server again on a fresh port', async () => {
      const offered: number[] = [];
      const pickPort = async () => {
        offered.push(offered.length === 0 ? taken : await freeLoopbackPort());
        return offered.at(-1)!;
      };
      const started = await startBenchServer({ name: 'retried', script }, { pickPort });
      expect(offered).toHaveLength(2);
      expect(started.url).toBe(`http://127.0.0.1:${offered[1]}`);
      expect(await (await fetch(started.url)).text()).toBe('ok');
      await started.stop();
    });

    it('gives up after its attempts, naming the taken port', async () => {
      const start = startBenchServer({ name: 'hopeless', script }, { attempts: 2, pickPort: async () => taken });
      await expect(start).rejects.toBeInstanceOf(BenchServerPortTakenError);
      await expect(start).rejects.toThrow(/EADDRINUSE/);
    });
  });

  it('writes a CPU profile when BENCH_CPU_PROF_DIR is set', async () => {
    expect(cpuProfileFlags('x', {})).toEqual([]);
    expect(cpuProfileFlags('x', { [BENCH_CPU_PROF_DIR_ENV]: dir })).toEqual(['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-name=x.cpuprofile']);
    process.env[BENCH_CPU_PROF_DIR_ENV] = dir;
    try {
      const started = await startBenchServer({ name: 'profiled', script });
      await started.stop();
    } finally {
      delete process.env[BENCH_CPU_PROF_DIR_ENV];
    }
    const file = path.join(dir, 'profiled.cpuprofile');
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(dir)).toEqual(['profiled.cpuprofile']);
    const summary = summarizeCpuProfile(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
    expect(summary.totalMs).toBeGreaterThan(0);
  });
});
