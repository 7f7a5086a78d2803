/**
 * Without SMTP_URL, mail is written under DATA_DIR/mail and its links printed (issue 24 D): the start says so once,
 * and each link of a mail is on a line of its own, the one to click first, so that copying "the link" copies one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { testConfig } from '#server/config.ts';
import { createMailer, renderMail } from './mail.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-mail-log-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function capture() {
  const lines: string[] = [];
  const record = (...args: unknown[]) => lines.push(String(typeof args[0] === 'string' ? args[0] : args[1]));
  const log = { info: record, warn: record, error: record, debug: () => {} } as unknown as FastifyBaseLogger;
  return { lines, log };
}

describe('mail without SMTP', () => {
  it('says once where mail goes, then prints each link of a mail on its own line, the button first', async () => {
    const { lines, log } = capture();
    const mailer = createMailer(testConfig({ dataDir, smtpUrl: undefined }), log);
    try {
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('SMTP_URL');
      expect(lines[0]).toContain(path.join(dataDir, 'mail'));
      expect(lines[0]).toContain('MAIL');

      // The consent request's shape: a code page named in the text, the request itself as the button.
      const open = 'http://localhost:8080/es/consent/abc123def456?x=1&y=2';
      const codePage = 'http://localhost:8080/es/consent/code';
      const body = renderMail({
        lang: 'es',
        greeting: 'Hola, Ana:',
        lines: [
          'Agencia quiere anunciarte.',
          `Tu código: 1234. Si prefieres no abrir el enlace, escribe el código en esta página: ${codePage}.`,
        ],
        action: { label: 'Ver la solicitud', url: open },
        footer: 'Vitrina',
      });
      await mailer.send({ to: 'ana@example.test', subject: 'Agencia quiere anunciarte', ...body });
      const mail = lines.slice(1);
      expect(mail[0]).toMatch(/^MAIL to ana@example\.test «Agencia quiere anunciarte» .*\.eml$/);
      expect(mail.slice(1)).toEqual([`MAIL open: ${open}`, `MAIL link: ${codePage}`]);
      // No line carries two links.
      for (const line of mail) expect(line.match(/https?:\/\//g)?.length ?? 0, line).toBeLessThanOrEqual(1);
      expect(fs.readdirSync(path.join(dataDir, 'mail'))).toHaveLength(1);
    } finally {
      mailer.close();
    }
  });
});
