// One line per startup step, with its duration. A failing step prints its cause and the fix.
import { StackError, describeError } from './errors.js';

export interface Progress {
  step<T>(label: string, run: () => Promise<T>, done?: (value: T) => string | undefined): Promise<T>;
  info(message: string): void;
  fail(error: unknown): void;
}

const useColor = Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'];
const paint = (code: number, text: string): string => (useColor ? `\u001b[${code}m${text}\u001b[0m` : text);
export const green = (t: string): string => paint(32, t);
export const red = (t: string): string => paint(31, t);
export const dim = (t: string): string => paint(2, t);
export const bold = (t: string): string => paint(1, t);

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export function createProgress(prefix = 'stack', write: (line: string) => void = (l) => console.log(l)): Progress {
  const started = Date.now();
  return {
    async step(label, run, done) {
      const t0 = Date.now();
      try {
        const value = await run();
        const detail = done?.(value);
        write(`${dim(`[${prefix}]`)} ${green('✓')} ${label}${detail ? ` — ${detail}` : ''} ${dim(`(${seconds(Date.now() - t0)})`)}`);
        return value;
      } catch (error) {
        write(`${dim(`[${prefix}]`)} ${red('✗')} ${label} ${dim(`(${seconds(Date.now() - t0)})`)}`);
        throw error;
      }
    },
    info(message) {
      write(`${dim(`[${prefix}]`)} ${message} ${dim(`(+${seconds(Date.now() - started)})`)}`);
    },
    fail(error) {
      console.error(`${red('error:')} ${describeError(error)}`);
      if (error instanceof StackError) {
        if (error.logFile) console.error(`${dim('  log:')} ${error.logFile}`);
        if (error.fix) console.error(`${dim('  fix:')} ${error.fix}`);
      } else if (error instanceof Error && error.stack && process.env['STACK_DEBUG']) {
        console.error(error.stack);
      }
    },
  };
}
