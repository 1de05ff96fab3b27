// What every service's operator commands (`npm run admin -- <service> <command> [--json]`) share: the command line's
// parsing, its usage errors and the dispatch of one- or two-word commands. Each service keeps its own commands (the
// rules live in its domain services) and its process contract (admin/run.ts).

/** A malformed command line: exit code 2 and one line on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
}

export interface CommandResult {
  /** The one JSON document of `--json`. */
  json: unknown;
  /** The human text otherwise. */
  text: string;
}

export interface AdminCommand<Deps> {
  /** The command line as `help` shows it. */
  usage: string;
  summary: string;
  /** Options it takes (`--name`), besides --json. */
  options: readonly string[];
  run(args: ParsedArgs, deps: Deps): Promise<CommandResult>;
}

/** `--name N`, `--name=N`, repeatable options (each command decides whether a repeat is allowed); `--json` is taken off by the caller. */
export function parseArgs(argv: readonly string[], known: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      i += 1;
    }
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { positionals, options };
}

/** A required option's value: given exactly once, not blank. */
export function requiredOption(args: ParsedArgs, name: string): string {
  const values = args.options.get(name) ?? [];
  if (values.length !== 1 || values[0]!.trim() === '') throw new UsageError(`--${name} is required, exactly once`);
  return values[0]!;
}

/** An optional option's value, or undefined; given twice is a usage error (which one was meant?). */
export function optionalOption(args: ParsedArgs, name: string): string | undefined {
  const values = args.options.get(name) ?? [];
  if (values.length > 1) throw new UsageError(`--${name} given more than once`);
  return values[0];
}

/** Exactly `count` positional arguments, else a usage error quoting the command's usage. */
export function positionalArgs(args: ParsedArgs, count: number, usage: string): string[] {
  if (args.positionals.length !== count) throw new UsageError(`expected: ${usage}`);
  return args.positionals;
}

/** The `help` text: one line per command, usages aligned. */
export function adminUsage<Deps>(service: string, commands: Readonly<Record<string, AdminCommand<Deps>>>): string {
  const width = Math.max(...Object.values(commands).map((command) => command.usage.length)) + 2;
  return [`usage: admin ${service} <command> [--json]`, ...Object.values(commands).map((command) => `  ${command.usage.padEnd(width)}${command.summary}`)].join('\n');
}

/** Runs `argv` (without --json): the command named by its first one or two words, with the arguments after them. */
export async function runAdminCommandOf<Deps>(commands: Readonly<Record<string, AdminCommand<Deps>>>, argv: readonly string[], deps: Deps): Promise<CommandResult> {
  const [first, second] = argv;
  const twoWords = commands[`${first} ${second}`];
  const oneWord = first === undefined ? undefined : commands[first];
  const command = twoWords ?? oneWord;
  if (!command) throw new UsageError(first === undefined ? 'missing command' : `unknown command "${argv.slice(0, 2).join(' ')}"`);
  const rest = argv.slice(twoWords ? 2 : 1);
  return command.run(parseArgs(rest, command.options), deps);
}
