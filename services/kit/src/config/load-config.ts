// Configuration comes from the environment, validated once at startup: a bad value stops the process
// with a message naming every offending variable instead of failing later somewhere obscure.
import type { z } from 'zod';

export interface ConfigProblem {
  variable: string;
  problem: string;
}

export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: ConfigProblem[]) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable} ${p.problem}`).join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses `env` (default `process.env`) with `schema`. Empty strings count as unset, so `FOO=` in an env file
 * falls back to the default instead of failing as an invalid value.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const present: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') present[name] = value;
  }
  const result = schema.safeParse(present);
  if (result.success) return result.data;

  const problems = new Map<string, string[]>();
  for (const issue of result.error.issues) {
    const variable = issue.path.length > 0 ? String(issue.path[0]) : '(environment)';
    // A rule of the service's own (a refinement) explains itself; a plain missing variable is just "is required".
    const problem = variable in present || issue.code === 'custom' ? issue.message : 'is required';
    const list = problems.get(variable) ?? [];
    if (!list.includes(problem)) list.push(problem);
    problems.set(variable, list);
  }
  throw new ConfigError([...problems].map(([variable, list]) => ({ variable, problem: list.join(', ') })));
}
