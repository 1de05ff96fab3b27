// What every service's operator commands (`npm run admin -- <service> <command> [--json]`) share: the command line's
// parsing, its usage errors and the dispatch of one- or two-word commands. Each service keeps its own commands (the
// rules live in its domain services) and what it opens to run them (admin/run.ts); the process contract is here.
import { ConfigError } from '../config/index.js';
import { ConflictError, DomainError, NotFoundError, ValidationError, type FieldErrors } from '../errors/index.js';

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

/** Where an operator command reads its environment and writes its result (the process's, or a test's). */
export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export function processAdminIo(): AdminIo {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr };
}

/** How a command ends: exit code 2 for what the operator typed, 1 for anything else; `kind` is the JSON error code. */
export interface AdminExit {
  code: 1 | 2;
  kind: 'usage' | 'not_found' | 'invalid_argument' | 'conflict' | 'config' | 'failed';
  message: string;
}

/** A service's operator program: its usage text and how it runs one command on its resources. */
export interface AdminProgram {
  usage: string;
  /** Runs one command (argv without --json), opening and releasing the service's resources (database, Temporal). */
  run(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CommandResult>;
  /** How the operator typed the domain's field names, for a ValidationError; without them its message is shown. */
  fieldLabels?: Readonly<Record<string, string>>;
}

/**
 * The operator commands' process contract, the same for every service: stdout carries the result only (with --json
 * exactly one JSON document, also for errors: {"error":{code, message}}), otherwise human text; stderr one line on
 * failure. Resolves to the exit code: 0 done, 2 bad arguments or a value a rule refuses, 1 unknown id or any other
 * failure.
 */
export async function runAdminProgram(argv: readonly string[], io: AdminIo, program: AdminProgram): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((arg) => arg !== '--json');
  if (args.length === 0) return fail(io, json, { code: 2, kind: 'usage', message: 'missing command (run "help" for the list)' });
  if (args[0] === 'help' || args[0] === '--help' || args[0] === '-h') {
    io.stdout.write(json ? `${JSON.stringify({ usage: program.usage })}\n` : `${program.usage}\n`);
    return 0;
  }
  try {
    const result = await program.run(args, io.env);
    io.stdout.write(json ? `${JSON.stringify(result.json)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    return fail(io, json, adminExitFor(error, program.fieldLabels));
  }
}

function fail(io: AdminIo, json: boolean, exit: AdminExit): number {
  io.stderr.write(`${exit.code === 2 ? 'usage error' : 'error'}: ${exit.message}\n`);
  if (json) io.stdout.write(`${JSON.stringify({ error: { code: exit.kind, message: exit.message } })}\n`);
  return exit.code;
}

/** `--email: Must be an e-mail address.; --password: …`: the domain's fields named as the operator typed them. */
function fieldsMessage(fields: FieldErrors, labels: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([field, messages]) => `${labels[field] ?? `--${field}`}: ${messages.join(' ')}`)
    .join('; ');
}

/** Exit 2 for what the operator typed (bad arguments, a value a domain rule refuses, a conflict), 1 otherwise. */
export function adminExitFor(error: unknown, fieldLabels?: Readonly<Record<string, string>>): AdminExit {
  if (error instanceof UsageError) return { code: 2, kind: 'usage', message: `${error.message} (run "help" for the list)` };
  if (error instanceof NotFoundError) return { code: 1, kind: 'not_found', message: error.message };
  if (error instanceof ValidationError) return { code: 2, kind: 'invalid_argument', message: fieldLabels ? fieldsMessage(error.fields, fieldLabels) : error.message };
  if (error instanceof DomainError && error.kind === 'business_rule') return { code: 2, kind: 'invalid_argument', message: error.message };
  if (error instanceof ConflictError) return { code: 2, kind: 'conflict', message: error.message };
  if (error instanceof ConfigError) return { code: 1, kind: 'config', message: error.message };
  return { code: 1, kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}
