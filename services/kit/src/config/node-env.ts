// What NODE_ENV decides for the published development fallbacks (the secrets key) and for `seed`: they are for a
// developer's machine and the tests only. Any other value, and no value at all, counts as a deployment, so a staging
// host that forgot NODE_ENV cannot run on a key everyone knows.

/** The NODE_ENV values of a developer's machine (`npm start` sets `development`) and of the tests (Jest sets `test`). */
export const DEVELOPMENT_NODE_ENVS = ['development', 'test'] as const;

/** Whether `nodeEnv` is one of DEVELOPMENT_NODE_ENVS (exactly; unset is not). */
export function isDevelopmentNodeEnv(nodeEnv: string | undefined): boolean {
  return (DEVELOPMENT_NODE_ENVS as readonly string[]).includes(nodeEnv?.trim() ?? '');
}

/** `NODE_ENV is "staging"` / `NODE_ENV is unset`, for messages. */
export function describeNodeEnv(nodeEnv: string | undefined): string {
  const value = nodeEnv?.trim();
  return value ? `NODE_ENV is ${JSON.stringify(value.slice(0, 40))}` : 'NODE_ENV is unset';
}
