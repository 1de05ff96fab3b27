// Mail for `npm start`: bnpl's dashboard login e-mails its one-time codes. Unless SMTP_URL names a mail server, the
// runner starts MailDev (npm `maildev`): an SMTP server (MAILDEV_SMTP_PORT, 1025) that delivers nowhere, whose messages
// are read in its web inbox and REST API (MAILDEV_WEB_PORT, 1080; `GET /api/email`). Messages are kept in
// .stack/maildev (wiped by `npm run reset`). A taken port stops `npm start` like any other (ports.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StackEnv } from './config.js';
import type { PortClaim } from './ports.js';
import { redactUrl } from './postgres.js';
import { httpOk, waitUntilReady } from './readiness.js';
import type { ServiceSpec } from './services.js';
import type { ManagedProcess, Supervisor } from './supervisor.js';

/** Where the services' mail goes: MailDev started by the runner, or the server in SMTP_URL. */
export type MailPlan = { kind: 'maildev'; smtpPort: number; webPort: number } | { kind: 'external'; smtpUrl: string };

/** The mail plan of a start: none when bnpl (the only service that sends mail) is not started and no infra-only run. */
export function mailPlan(env: StackEnv, specs: readonly ServiceSpec[], infraOnly: boolean): MailPlan | undefined {
  if (!infraOnly && !specs.some((s) => s.name === 'bnpl')) return undefined;
  if (env.SMTP_URL) return { kind: 'external', smtpUrl: env.SMTP_URL };
  return { kind: 'maildev', smtpPort: env.MAILDEV_SMTP_PORT, webPort: env.MAILDEV_WEB_PORT };
}

export function mailPortClaims(plan: MailPlan | undefined): PortClaim[] {
  if (plan?.kind !== 'maildev') return [];
  return [
    { variable: 'MAILDEV_SMTP_PORT', port: plan.smtpPort, purpose: 'MailDev SMTP' },
    { variable: 'MAILDEV_WEB_PORT', port: plan.webPort, purpose: 'MailDev inbox' },
  ];
}

export interface RunningMail {
  /** SMTP_URL for the services. */
  smtpUrl: string;
  /** The web inbox (also its REST API under /api), or undefined for an external server. */
  inboxUrl?: string;
  proc?: ManagedProcess;
}

/** MailDev's command line: SMTP and web on `host`, messages in `mailDirectory`, no console output of messages. */
export function mailDevArgs(options: { host: string; smtpPort: number; webPort: number; mailDirectory: string }): string[] {
  return [
    mailDevEntry(),
    '--smtp', String(options.smtpPort),
    '--ip', options.host,
    '--web', String(options.webPort),
    '--web-ip', options.host,
    '--mail-directory', options.mailDirectory,
  ];
}

/** The maildev package's CLI (its package exports only the library, whose file sits beside the CLI's folder). */
function mailDevEntry(): string {
  return path.join(path.dirname(fileURLToPath(import.meta.resolve('maildev'))), 'bin', 'maildev.js');
}

/** Starts MailDev under the supervisor (stopped after the services) and waits until its inbox answers. */
export async function startMailDev(options: {
  supervisor: Supervisor;
  host: string;
  displayHost: string;
  smtpPort: number;
  webPort: number;
  mailDirectory: string;
  timeoutMs?: number;
}): Promise<RunningMail> {
  const proc = options.supervisor.spawn({ name: 'maildev', command: process.execPath, args: mailDevArgs(options), tier: 'mail', graceMs: 5_000 });
  // Reached locally: a wildcard bind address through the loopback one.
  const local = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  const inbox = `http://${local}:${options.webPort}`;
  await waitUntilReady([{ name: `MailDev inbox (${inbox})`, proc, probe: () => httpOk(`${inbox}/api/healthz`) }], options.timeoutMs ?? 30_000);
  return { smtpUrl: `smtp://${local}:${options.smtpPort}`, inboxUrl: `http://${options.displayHost}:${options.webPort}`, proc };
}

/** The mail rows of the tables: MailDev's inbox and SMTP, or the SMTP_URL server. */
export function mailRows(mail: RunningMail | undefined): string[][] {
  if (!mail) return [];
  if (!mail.inboxUrl) return [['mail', 'SMTP (SMTP_URL)', redactUrl(mail.smtpUrl)]];
  return [
    ['maildev', 'inbox (login codes; REST API /api/email)', mail.inboxUrl],
    ['', 'SMTP', mail.smtpUrl],
  ];
}
