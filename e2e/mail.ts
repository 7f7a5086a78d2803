/** Reads the e-mails the e2e server wrote to its outbox (DATA_DIR/mail/*.eml) — the real files `npm start` writes. */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Waits for the newest mail to `to` whose text matches `pattern`, and returns the first match. */
export async function linkFromMail(to: string, pattern: RegExp): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR!, 'mail');
  let found: string | undefined;
  await expect
    .poll(
      () => {
        if (!fs.existsSync(dir)) return undefined;
        const files = fs
          .readdirSync(dir)
          .filter((f) => f.includes(to.replace(/[^a-z0-9@.-]/gi, '_')))
          .sort()
          .reverse();
        for (const f of files) {
          const text = Buffer.from(decodeQuotedPrintable(fs.readFileSync(path.join(dir, f), 'utf8')), 'latin1').toString('utf8');
          const m = text.match(pattern);
          if (m) return (found = m[0]);
        }
        return undefined;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return found!;
}
