// The bnpl service's environment: the kit's serviceEnv plus outgoing mail (the login codes), the login rate limits and the
// kit's secrets env (SECRETS_ENCRYPTION_KEY seals webhook endpoint secrets; required unless NODE_ENV is development or test).
import { envUrl, requireSecretsKeyOutsideDevelopment, secretsFields, serviceEnv } from '@tributary/kit';
import { z } from 'zod';
import { exportLimitFields } from './modules/sales/index.js';
import { sessionReadLimitFields } from './modules/widget-sessions/index.js';
import { rateLimitFields } from './rate-limits.js';

/** Where mail goes when SMTP_URL is unset outside production: MailDev's default SMTP port (`npm start` runs MailDev). */
export const DEV_SMTP_URL = 'smtp://127.0.0.1:1025';
export const DEFAULT_MAIL_FROM = 'Tributary BNPL <no-reply@bnpl.tributary.test>';

export const mailFields = {
  /** smtp:// or smtps:// URL of the mail server (user and password in the URL; nodemailer options as its query). */
  SMTP_URL: envUrl(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL').optional(),
  /** The From header of the service's mail. */
  MAIL_FROM: z.string().trim().min(3).default(DEFAULT_MAIL_FROM),
};

function requireSmtpInProduction(env: { NODE_ENV?: string | undefined; SMTP_URL?: string | undefined }, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production' && !env.SMTP_URL) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required in production (the dashboard login e-mails its codes), e.g. smtps://user:pass@mail.example:465' });
  }
}

/** `serve`: serviceEnv + mail + the login rate limits (rate-limits.ts) + the session polling limit + the export's bounds + secrets. */
export const bnplEnv = serviceEnv.extend({ ...mailFields, ...rateLimitFields, ...sessionReadLimitFields, ...exportLimitFields, ...secretsFields }).superRefine((env, ctx) => {
  requireSmtpInProduction(env, ctx);
  requireSecretsKeyOutsideDevelopment(env, ctx);
});
export type BnplConfig = z.infer<typeof bnplEnv>;

/** The SMTP URL in force: SMTP_URL, or MailDev's default outside production. */
export function smtpUrlOf(config: { SMTP_URL?: string | undefined }): string {
  return config.SMTP_URL ?? DEV_SMTP_URL;
}
