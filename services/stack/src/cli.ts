// Entry point of the runner (started by bin/tributary.mjs under the repo's Node 24).
//   start [--verbose] [--only bnpl,crypto] [--infra-only] [--chains]
//   test  [--checks|--no-checks] [jest args…]
//   fuzz  [jest args…]
//   reset
//   bench [NAME…] [--strict] [--cpu-prof] [--smoke] [--duration=S] [--warmup=S] [--rounds=N] [--connections=N]
import { BENCH_USAGE, parseBenchArgs, runBench } from './bench-runner.js';
import { createProgress } from './progress.js';
import { reset } from './reset.js';
import { start } from './start.js';
import { parseStartArgs } from './start-args.js';
import { runFuzz, runTests } from './test-runner.js';

const USAGE = `usage: tributary <command>
  start [--verbose] [--only bnpl,crypto,photos] [--infra-only] [--chains]
                                                                  run the whole stack (npm start); --chains (or
                                                                  TRIBUTARY_CHAINS=1): Litecoin regtest and anvil
                                                                  (ethereum) nodes for crypto
  test  [--checks|--no-checks] [jest arguments]                   isolated provisioning + one Jest run (npm test)
  fuzz  [jest arguments]                                          the deep fuzz run (npm run fuzz): the fuzz and
                                                                  contract-fuzz tests of bnpl, crypto and photos only,
                                                                  with many more examples and Schemathesis's stateful phase
  reset                                                           wipe .stack/ except .stack/tools (npm run reset)
  ${BENCH_USAGE}
        isolated provisioning + every benchmark (or those named), a table and bench/results/<date-time>.json (npm run bench)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'start':
      return start(parseStartArgs(args, USAGE));
    case 'test': {
      const checksFlag = args.find((a) => a === '--checks' || a === '--no-checks');
      const jestArgs = args.filter((a) => a !== '--checks' && a !== '--no-checks');
      return runTests({
        jestArgs,
        ...(checksFlag ? { checks: checksFlag === '--checks' } : {}),
        verbose: process.env['STACK_VERBOSE'] === '1',
      });
    }
    case 'fuzz':
      return runFuzz(args);
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
