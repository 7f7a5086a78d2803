/**
 * Outgoing mail, sent by the `mail` job (modules/jobs/mail-job.ts; code elsewhere queues with queueMail, never calls
 * `send` itself). With SMTP_URL, nodemailer sends over SMTP. Without it, each message is written as an .eml
 * file under DATA_DIR/mail and its links are printed in the log, so `npm start` users can finish flows that
 * need an e-mail. Tests without a data directory keep messages in memory (`outbox`).
 */
import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields, sent as given (the saved-search digest's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Messages kept in memory (only when there is neither SMTP nor a data directory). */
  readonly outbox: MailMessage[];
  close(): void;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const outbox: MailMessage[] = [];
  let transport: Transporter;
  let mode: 'smtp' | 'files' | 'memory';
  if (config.smtpUrl) {
    // Timeouts well inside the job lease (5 min, modules/jobs): a hung server fails the attempt, retried later,
    // rather than outliving the lease and being sent again by another node (nodemailer's socket default is 10 min).
    transport = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    mode = 'smtp';
  } else {
    transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    mode = config.dataDir === ':memory:' ? 'memory' : 'files';
  }
  const dir = mode === 'files' ? path.join(config.dataDir, 'mail') : '';
  if (dir) fs.mkdirSync(dir, { recursive: true });
  // Said once at start: without it a new user waits for a verification mail that no server sends.
  if (mode === 'files')
    log.info(
      `Mail: SMTP_URL is not set, so nothing is sent: each mail is written to ${dir} and its links printed on lines starting with MAIL`,
    );

  return {
    outbox,
    async send(message) {
      const info = (await transport.sendMail({ from: config.mailFrom, ...message })) as { message?: Buffer };
      if (mode === 'memory') outbox.push(message);
      if (mode === 'files' && info.message) {
        const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.to.replace(/[^a-z0-9@.-]/gi, '_')}.eml`);
        await fs.promises.writeFile(file, info.message);
        const links = [...new Set((message.text.match(/https?:\/\/\S+/g) ?? []).map((l) => l.replace(/[.,;:!?)»"']+$/, '')))];
        // The link to click is the mail's button, the one anchor renderMail draws; the text may name others (a page
        // to type a code into). One link a line, nothing after it, so that copying the line's end copies one link.
        const action = /<a href="([^"]+)"/.exec(message.html)?.[1]?.replaceAll('&amp;', '&');
        const ordered = action && links.includes(action) ? [action, ...links.filter((l) => l !== action)] : links;
        log.info(
          { mail: { to: message.to, subject: message.subject, file, links: ordered } },
          `MAIL to ${message.to} «${message.subject}» ${file}`,
        );
        ordered.forEach((link, i) => log.info(`MAIL ${i === 0 && action === link ? 'open' : 'link'}: ${link}`));
      }
    },
    close() {
      transport.close();
    },
  };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain, accessible e-mail with one call to action; the text part carries the same content. */
export function renderMail(opts: {
  lang: string;
  greeting: string;
  lines: string[];
  action?: { label: string; url: string };
  footer: string;
}): {
  text: string;
  html: string;
} {
  const text = [
    opts.greeting,
    '',
    ...opts.lines,
    ...(opts.action ? ['', `${opts.action.label}: ${opts.action.url}`] : []),
    '',
    '—',
    opts.footer,
  ].join('\n');
  const html = `<!doctype html><html lang="${escape(opts.lang)}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1b1e;max-width:560px;margin:auto;padding:16px">
<p>${escape(opts.greeting)}</p>${opts.lines.map((l) => `<p>${escape(l)}</p>`).join('')}
${opts.action ? `<p><a href="${escape(opts.action.url)}" style="display:inline-block;background:#ffb01b;color:#1a1b1e;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:700">${escape(opts.action.label)}</a></p><p style="font-size:12px;color:#555">${escape(opts.action.url)}</p>` : ''}
<hr style="border:none;border-top:1px solid #ddd"><p style="font-size:12px;color:#555">${escape(opts.footer)}</p></body></html>`;
  return { text, html };
}
