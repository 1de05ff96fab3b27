// Outgoing e-mail over SMTP (nodemailer), configured by SMTP_URL and MAIL_FROM. nodemailer's own logger stays off: it
// would write message contents (sign-in codes) to the log.
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects when it could not be handed over. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface SmtpMailerOptions {
  /** smtp://host:port or smtps://user:pass@host:465; nodemailer reads options from its query (e.g. `?ignoreTLS=true`). */
  url: string;
  /** The From header, e.g. `Tributary BNPL <no-reply@example.com>`. */
  from: string;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const transport = nodemailer.createTransport({ url: options.url, logger: false, debug: false }, { from: options.from });
  return {
    async send(message) {
      await transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
