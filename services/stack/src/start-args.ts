// `npm start` arguments: [--verbose] [--only bnpl,crypto,photos] [--infra-only] [--chains].
import { StackError } from './errors.js';
import { SERVICE_NAMES, type ServiceName } from './services.js';
import type { StartOptions } from './start.js';

export function parseStartArgs(args: readonly string[], usage: string): StartOptions {
  const opts: StartOptions = { verbose: false, infraOnly: false, chains: false };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--verbose' || arg === '-v') opts.verbose = true;
    else if (arg === '--infra-only') opts.infraOnly = true;
    else if (arg === '--chains') opts.chains = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const bad = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
      if (names.length === 0 || bad.length) throw new StackError(`--only: unknown service ${bad.join(', ') || '(none given)'}`, `use any of ${SERVICE_NAMES.join(', ')}`);
      opts.only = names as ServiceName[];
    } else throw new StackError(`unknown option for start: ${arg}`, usage);
  }
  return opts;
}
