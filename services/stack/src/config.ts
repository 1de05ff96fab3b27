// Runner configuration from the environment, validated with zod. A bad value stops the runner with a
// message naming the variable.
import { z } from 'zod';
import { StackError } from './errors.js';

const port = z.coerce.number().int().min(1).max(65535);
const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional());

export const stackEnvSchema = z.object({
  GATEWAY_PORT: port.default(4000),
  BNPL_PORT: port.default(4001),
  CRYPTO_PORT: port.default(4002),
  PHOTOS_PORT: port.default(4003),
  /** Each worker's /metrics (and /healthz, /readyz) listener: the worker's METRICS_PORT. */
  BNPL_WORKER_METRICS_PORT: port.default(4011),
  CRYPTO_WORKER_METRICS_PORT: port.default(4012),
  PHOTOS_WORKER_METRICS_PORT: port.default(4013),
  TEMPORAL_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  POSTGRES_PORT: port.default(5433),
  /** MailDev (started when SMTP_URL is unset): its SMTP port and its web inbox + REST API. */
  MAILDEV_SMTP_PORT: port.default(1025),
  MAILDEV_WEB_PORT: port.default(1080),
  /** An SMTP server for the services' mail (bnpl's login codes); the runner then starts no MailDev. */
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.url({ protocol: /^smtps?$/, error: 'expected an smtp:// or smtps:// URL' }).optional()),
  /** Address the services bind to and the URL table shows. */
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** A PostgreSQL server URL; the runner creates tributary_bnpl/_crypto/_photos on it when missing. */
  DATABASE_URL: optionalUrl,
  BNPL_DATABASE_URL: optionalUrl,
  CRYPTO_DATABASE_URL: optionalUrl,
  PHOTOS_DATABASE_URL: optionalUrl,
  /** host:port of an existing Temporal frontend; the runner then starts no dev server. */
  TEMPORAL_ADDRESS: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().regex(/^[^\s:/]+:\d{1,5}$/, 'expected host:port, e.g. 127.0.0.1:7233').optional()),
  TEMPORAL_NAMESPACE: z.string().trim().min(1).default('default'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `npm start -- --chains` without the flag: 1/true/yes (or 0/false/no/empty). */
  TRIBUTARY_CHAINS: z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .pipe(z.enum(['', '0', '1', 'false', 'true', 'no', 'yes'], { error: 'expected 1 or 0 (true/false, yes/no)' }).optional())
    .transform((v) => v === '1' || v === 'true' || v === 'yes'),
  /** --chains: the Litecoin regtest node's JSON-RPC port (loopback only). */
  LTC_RPC_PORT: port.default(19443),
  /** --chains: the anvil (ethereum regtest) node's JSON-RPC port (loopback only). */
  ETH_RPC_PORT: port.default(18545),
  /** --chains: seconds between the blocks the runner mines (0: none; mine by hand). */
  CHAINS_BLOCK_INTERVAL: z.coerce.number().int().min(0).max(86_400).default(10),
  /** --chains: seconds between the anvil node's blocks; unset: half of CHAINS_BLOCK_INTERVAL, rounded up (chains.ts). */
  CHAINS_EVM_BLOCK_INTERVAL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.coerce.number<string | undefined>().int().min(0).max(86_400).optional()),
  /** Seconds to wait for every /readyz (and worker) before giving up. */
  READY_TIMEOUT: z.coerce.number().int().positive().default(180),
});

export type StackEnv = z.infer<typeof stackEnvSchema>;

export function loadStackEnv(env: NodeJS.ProcessEnv = process.env): StackEnv {
  const result = stackEnvSchema.safeParse(env);
  if (result.success) {
    const ports: Array<[string, number]> = [
      ['GATEWAY_PORT', result.data.GATEWAY_PORT],
      ['BNPL_PORT', result.data.BNPL_PORT],
      ['CRYPTO_PORT', result.data.CRYPTO_PORT],
      ['PHOTOS_PORT', result.data.PHOTOS_PORT],
      ['BNPL_WORKER_METRICS_PORT', result.data.BNPL_WORKER_METRICS_PORT],
      ['CRYPTO_WORKER_METRICS_PORT', result.data.CRYPTO_WORKER_METRICS_PORT],
      ['PHOTOS_WORKER_METRICS_PORT', result.data.PHOTOS_WORKER_METRICS_PORT],
      ['TEMPORAL_PORT', result.data.TEMPORAL_PORT],
      ['TEMPORAL_UI_PORT', result.data.TEMPORAL_UI_PORT],
      ['POSTGRES_PORT', result.data.POSTGRES_PORT],
      // MailDev's ports matter only when it runs (no SMTP_URL).
      ...(result.data.SMTP_URL ? [] : ([['MAILDEV_SMTP_PORT', result.data.MAILDEV_SMTP_PORT], ['MAILDEV_WEB_PORT', result.data.MAILDEV_WEB_PORT]] as Array<[string, number]>)),
    ];
    const seen = new Map<number, string>();
    for (const [name, value] of ports) {
      const other = seen.get(value);
      if (other) {
        throw new StackError(`${name} and ${other} are both ${value}`, `give ${name} or ${other} a different port`);
      }
      seen.set(value, name);
    }
    return result.data;
  }
  const lines = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = issue.path.length ? env[String(issue.path[0])] : undefined;
    return `${name}=${value === undefined ? '(unset)' : JSON.stringify(value)}: ${issue.message}`;
  });
  const names = [...new Set(result.error.issues.map((i) => i.path.join('.')))].join(', ');
  throw new StackError(`invalid environment: ${lines.join('; ')}`, `fix or unset ${names}`);
}
