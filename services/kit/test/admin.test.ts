import { describe, expect, it } from '@jest/globals';
import { ConfigError, ConflictError, NotFoundError, ValidationError } from '../src/index.js';
import { UsageError, adminExitFor, adminUsage, runAdminProgram, optionalOption, parseArgs, positionalArgs, requiredOption, runAdminCommandOf, type AdminCommand } from '../src/admin/index.js';

describe('operator command toolkit', () => {
  it('parses --name N, --name=N, repeats and positionals; refuses unknown options and missing values', () => {
    const args = parseArgs(['key', '--name', 'Shop', '--tag=a', '--tag', 'b', 'more'], ['name', 'tag']);
    expect(args.positionals).toEqual(['key', 'more']);
    expect(Object.fromEntries(args.options)).toEqual({ name: ['Shop'], tag: ['a', 'b'] });
    expect(() => parseArgs(['--colour', 'red'], ['name'])).toThrow(new UsageError('unknown option --colour'));
    expect(() => parseArgs(['--name'], ['name'])).toThrow(new UsageError('--name needs a value'));
    expect(() => parseArgs(['--name', '--tag', 'x'], ['name', 'tag'])).toThrow(new UsageError('--name needs a value'));
  });

  it('reads required and optional options strictly, and counts positionals', () => {
    const args = parseArgs(['a', '--name', 'Shop', '--tag', 'x', '--tag', 'y', '--blank', ' '], ['name', 'tag', 'blank', 'none']);
    expect(requiredOption(args, 'name')).toBe('Shop');
    expect(() => requiredOption(args, 'none')).toThrow('--none is required, exactly once');
    expect(() => requiredOption(args, 'blank')).toThrow('--blank is required, exactly once');
    expect(() => requiredOption(args, 'tag')).toThrow('--tag is required, exactly once');
    expect(optionalOption(args, 'none')).toBeUndefined();
    expect(() => optionalOption(args, 'tag')).toThrow('--tag given more than once');
    expect(positionalArgs(args, 1, 'cmd A')).toEqual(['a']);
    expect(() => positionalArgs(args, 2, 'cmd A B')).toThrow('expected: cmd A B');
  });

  it('dispatches one- and two-word commands and lists them in the usage', async () => {
    const echo = (word: string): AdminCommand<{ prefix: string }> => ({
      usage: `${word} [--x X]`,
      summary: `the ${word} command`,
      options: ['x'],
      run: async (args, deps) => ({ json: { word, x: optionalOption(args, 'x') ?? null, rest: args.positionals }, text: `${deps.prefix}${word}` }),
    });
    const commands = { 'key create': echo('key create'), assets: echo('assets') };
    expect(await runAdminCommandOf(commands, ['key', 'create', '--x', '1'], { prefix: '>' })).toEqual({ json: { word: 'key create', x: '1', rest: [] }, text: '>key create' });
    expect((await runAdminCommandOf(commands, ['assets', 'BTC'], { prefix: '' })).json).toEqual({ word: 'assets', x: null, rest: ['BTC'] });
    await expect(runAdminCommandOf(commands, ['key', 'delete'], { prefix: '' })).rejects.toThrow('unknown command "key delete"');
    await expect(runAdminCommandOf(commands, [], { prefix: '' })).rejects.toThrow('missing command');
    expect(adminUsage('demo', commands).split('\n')).toEqual(['usage: admin demo <command> [--json]', '  key create [--x X]  the key create command', '  assets [--x X]      the assets command']);
  });
});

describe('operator process contract', () => {
  it('maps errors to exit codes and JSON codes: 2 for what the operator typed, 1 otherwise', () => {
    expect(adminExitFor(new UsageError('bad'))).toEqual({ code: 2, kind: 'usage', message: 'bad (run "help" for the list)' });
    expect(adminExitFor(new NotFoundError('thing 1'))).toMatchObject({ code: 1, kind: 'not_found' });
    expect(adminExitFor(new ValidationError({ mdrBps: ['Too high.'], email: ['Bad.'] }), { mdrBps: 'MDR' })).toEqual({ code: 2, kind: 'invalid_argument', message: 'MDR: Too high.; --email: Bad.' });
    expect(adminExitFor(new ConflictError('taken'))).toEqual({ code: 2, kind: 'conflict', message: 'taken' });
    expect(adminExitFor(new ConfigError([{ variable: 'X', problem: 'missing' }]))).toMatchObject({ code: 1, kind: 'config' });
    expect(adminExitFor(new Error('boom'))).toEqual({ code: 1, kind: 'failed', message: 'boom' });
  });

  it('writes one JSON document to stdout with --json, the error line to stderr, and answers help without running', async () => {
    const io = () => {
      const out: string[] = [];
      const err: string[] = [];
      const stream = (into: string[]) => ({ write: (chunk: string) => into.push(chunk) }) as unknown as NodeJS.WritableStream;
      return { out, err, io: { env: {}, stdout: stream(out), stderr: stream(err) } };
    };
    let runs = 0;
    const program = { usage: 'usage: admin demo', run: async (args: readonly string[]) => (runs++, args[0] === 'fail' ? Promise.reject(new NotFoundError('No such thing.')) : { json: { ok: args }, text: 'done' }) };
    const ok = io();
    expect(await runAdminProgram(['go', '--json'], ok.io, program)).toBe(0);
    expect(ok.out).toEqual(['{"ok":["go"]}\n']);
    const failed = io();
    expect(await runAdminProgram(['fail', '--json'], failed.io, program)).toBe(1);
    expect(failed.out).toEqual(['{"error":{"code":"not_found","message":"No such thing."}}\n']);
    expect(failed.err).toEqual(['error: No such thing.\n']);
    const help = io();
    expect(await runAdminProgram(['help'], help.io, program)).toBe(0);
    expect(help.out).toEqual(['usage: admin demo\n']);
    expect(await runAdminProgram([], io().io, program)).toBe(2);
    expect(runs).toBe(2);
  });
});
