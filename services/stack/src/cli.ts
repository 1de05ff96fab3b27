// Entry point of the runner (started by bin/tributary.mjs under the repo's Node 24).
//   start [--verbose] [--only bnpl,crypto] [--infra-only]
//   test  [--checks|--no-checks] [jest args…]
//   reset
//   bench [NAME…] [--strict] [--cpu-prof] [--duration=S] [--warmup=S] [--rounds=N] [--connections=N]
import { BENCH_USAGE, parseBenchArgs, runBench } from './bench-runner.js';
import { StackError } from './errors.js';
import { createProgress } from './progress.js';
import { reset } from './reset.js';
import { SERVICE_NAMES, type ServiceName } from './services.js';
import { start } from './start.js';
import { runTests } from './test-runner.js';

const USAGE = `usage: tributary <command>
  start [--verbose] [--only bnpl,crypto,photos] [--infra-only]   run the whole stack (npm start)
  test  [--checks|--no-checks] [jest arguments]                   isolated provisioning + one Jest run (npm test)
  reset                                                           wipe .stack/ except .stack/tools (npm run reset)
  ${BENCH_USAGE}
        isolated provisioning + every benchmark (or those named), a table and bench/results/<date-time>.json (npm run bench)`;

function parseStart(args: string[]): Parameters<typeof start>[0] {
  const opts: Parameters<typeof start>[0] = { verbose: false, infraOnly: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--verbose' || arg === '-v') opts.verbose = true;
    else if (arg === '--infra-only') opts.infraOnly = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const bad = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
      if (names.length === 0 || bad.length) throw new StackError(`--only: unknown service ${bad.join(', ') || '(none given)'}`, `use any of ${SERVICE_NAMES.join(', ')}`);
      opts.only = names as ServiceName[];
    } else throw new StackError(`unknown option for start: ${arg}`, USAGE);
  }
  return opts;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'start':
      return start(parseStart(args));
    case 'test': {
      const checksFlag = args.find((a) => a === '--checks' || a === '--no-checks');
      const jestArgs = args.filter((a) => a !== '--checks' && a !== '--no-checks');
      return runTests({
        jestArgs,
        ...(checksFlag ? { checks: checksFlag === '--checks' } : {}),
        verbose: process.env['STACK_VERBOSE'] === '1',
      });
    }
    case 'reset':
      return reset();
    case 'bench':
      return runBench(parseBenchArgs(args, process.env['STACK_VERBOSE'] === '1'));
    default:
      console.error(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    createProgress().fail(error);
    process.exit(1);
  },
);
