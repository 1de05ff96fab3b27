// Mail for `npm start`: MailDev runs (supervised, on MAILDEV_SMTP_PORT / MAILDEV_WEB_PORT) unless SMTP_URL names a
// server, bnpl gets its SMTP_URL, and the URL table shows the inbox. The real MailDev is started here on free ports:
// a message sent over SMTP shows up in its REST API, and stopping the supervisor stops it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadStackEnv } from '../src/config.js';
import { mailPlan, mailPortClaims, mailRows, startMailDev } from '../src/maildev.js';
import { freeLoopbackPort } from '@tributary/kit';
import { isPortFree } from '../src/ports.js';
import { serviceSpecs } from '../src/services.js';
import { Supervisor } from '../src/supervisor.js';

describe('mail plan', () => {
  const specs = serviceSpecs('/repo', loadStackEnv({}));

  it('MailDev on 1025 (SMTP) and 1080 (inbox) by default, when bnpl runs or for an infra-only start', () => {
    const env = loadStackEnv({});
    expect(mailPlan(env, specs, false)).toEqual({ kind: 'maildev', smtpPort: 1025, webPort: 1080 });
    expect(mailPlan(env, [], true)).toEqual({ kind: 'maildev', smtpPort: 1025, webPort: 1080 });
    expect(mailPlan(env, specs.filter((s) => s.name !== 'bnpl'), false)).toBeUndefined();
    expect(mailPortClaims(mailPlan(env, specs, false))).toEqual([
      { variable: 'MAILDEV_SMTP_PORT', port: 1025, purpose: 'MailDev SMTP' },
      { variable: 'MAILDEV_WEB_PORT', port: 1080, purpose: 'MailDev inbox' },
    ]);
  });

  it('ports from MAILDEV_SMTP_PORT / MAILDEV_WEB_PORT; SMTP_URL replaces MailDev (no ports claimed)', () => {
    expect(mailPlan(loadStackEnv({ MAILDEV_SMTP_PORT: '2525', MAILDEV_WEB_PORT: '8025' }), specs, false)).toEqual({ kind: 'maildev', smtpPort: 2525, webPort: 8025 });
    const external = mailPlan(loadStackEnv({ SMTP_URL: 'smtps://u:secret@mail.example:465' }), specs, false);
    expect(external).toEqual({ kind: 'external', smtpUrl: 'smtps://u:secret@mail.example:465' });
    expect(mailPortClaims(external)).toEqual([]);
    expect(mailRows({ smtpUrl: 'smtps://u:secret@mail.example:465' })).toEqual([['mail', 'SMTP (SMTP_URL)', 'smtps://u:***@mail.example:465']]);
  });

  it('refuses a bad SMTP_URL, and a MailDev port shared with another component (only while MailDev runs)', () => {
    expect(() => loadStackEnv({ SMTP_URL: 'http://mail.example' })).toThrow(/SMTP_URL/);
    expect(() => loadStackEnv({ MAILDEV_WEB_PORT: '4001' })).toThrow(/MAILDEV_WEB_PORT and BNPL_PORT are both 4001|BNPL_PORT and MAILDEV_WEB_PORT are both 4001/);
    expect(loadStackEnv({ MAILDEV_WEB_PORT: '4001', SMTP_URL: 'smtp://mail.example:25' }).MAILDEV_WEB_PORT).toBe(4001);
  });
});

/** A minimal SMTP client conversation (greeting, EHLO, MAIL, RCPT, DATA, QUIT): the server's replies in order. */
function sendSmtp(port: number, to: string, body: string): Promise<string[]> {
  const commands = ['EHLO test', 'MAIL FROM:<stack@test>', `RCPT TO:<${to}>`, 'DATA', `Subject: stack test\r\nTo: ${to}\r\n\r\n${body}\r\n.`, 'QUIT'];
  return new Promise((resolve, reject) => {
    const replies: string[] = [];
    let buffer = '';
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      // A reply is complete at a line "NNN text" (a space after the code; "NNN-" continues).
      let match: RegExpExecArray | null;
      while ((match = /^(?:\d{3}-[^\n]*\n)*(\d{3}) [^\n]*\n/.exec(buffer))) {
        replies.push(match[1]!);
        buffer = buffer.slice(match[0].length);
        const next = commands.shift();
        if (next === undefined) socket.end();
        else socket.write(`${next}\r\n`);
      }
    });
    socket.on('close', () => resolve(replies));
  });
}

describe('MailDev under the supervisor', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'stack-maildev-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts mail over SMTP, lists it in the inbox REST API, and stops with the supervisor', async () => {
    const supervisor = new Supervisor({ logDir: dir, reaper: false });
    const [smtpPort, webPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
    try {
      const mail = await startMailDev({ supervisor, host: '127.0.0.1', displayHost: 'localhost', smtpPort, webPort, mailDirectory: path.join(dir, 'mail') });
      expect(mail).toMatchObject({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, inboxUrl: `http://localhost:${webPort}` });
      expect(mailRows(mail)).toEqual([
        ['maildev', 'inbox (login codes; REST API /api/email)', `http://localhost:${webPort}`],
        ['', 'SMTP', `smtp://127.0.0.1:${smtpPort}`],
      ]);
      expect(await sendSmtp(smtpPort, 'owner@shop.test', 'Your sign-in code is 123456')).toEqual(['220', '250', '250', '250', '354', '250', '221']);
      const inbox = (await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as Array<{ subject: string; to: Array<{ address: string }> }>;
      expect(inbox).toEqual([expect.objectContaining({ subject: 'stack test', to: [expect.objectContaining({ address: 'owner@shop.test' })] })]);
    } finally {
      await supervisor.stopAll();
    }
    expect(await isPortFree(webPort)).toBe(true);
    expect(await isPortFree(smtpPort)).toBe(true);
  }, 60_000);
});
