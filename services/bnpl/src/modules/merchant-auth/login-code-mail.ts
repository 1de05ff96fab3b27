// The e-mail carrying a sign-in code. The code is in the body only (subjects end up in more places: notification
// previews, mail server logs).
import type { MailMessage } from '../../mail/index.js';
import { LOGIN_CODE_TTL_MINUTES } from './login-code-credentials.js';

export const LOGIN_CODE_MAIL_SUBJECT = 'Your BNPL dashboard sign-in code';

export function loginCodeMail(to: string, code: string): MailMessage {
  return {
    to,
    subject: LOGIN_CODE_MAIL_SUBJECT,
    text: [
      `Your sign-in code is ${code}`,
      '',
      `Enter it on the sign-in page within ${LOGIN_CODE_TTL_MINUTES} minutes. It works once.`,
      'If you did not try to sign in, someone knows your password: change it.',
    ].join('\n'),
  };
}
