// A real SMTP server for the login tests (nodemailer's smtp-server, in process, on a free port): the service sends
// its mail over SMTP to it exactly as to MailDev or a provider; each message is parsed (mailparser) and kept.
import { simpleParser, type AddressObject } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface SmtpInbox {
  /** SMTP_URL for the service. */
  url: string;
  readonly messages: readonly ReceivedMail[];
  /** Every message to `email` so far, oldest first. */
  to(email: string): ReceivedMail[];
  /** The sign-in code of the newest message to `email` (fails when there is none). */
  latestCode(email: string): string;
  close(): Promise<void>;
}

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP on localhost, no login (like MailDev's defaults).
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push({ from: mail.from?.text ?? '', to: addresses(mail.to), subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (email: string) => messages.filter((m) => m.to.includes(email.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    latestCode(email) {
      const mail = to(email).at(-1);
      const code = /sign-in code is (\d{6})\b/.exec(mail?.text ?? '')?.[1];
      if (!code) throw new Error(`no sign-in code mailed to ${email} (${messages.length} messages in the inbox)`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
