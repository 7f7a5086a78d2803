import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAgent } from '#tests/agent.ts';
import { startSmtpCapture, type SmtpCapture } from '#tests/smtp-capture.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';

/** A real SMTP peer on loopback: what nodemailer sends over SMTP_URL is what a mail server receives. */
let smtp: SmtpCapture;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('mail over SMTP', () => {
  it('delivers the verification mail, with a plain-text part and the signed link, to a real SMTP server', async () => {
    const agent = await newAgent(t.app);
    const email = `smtp-${Date.now()}@example.test`;
    const res = await agent.post(
      '/api/user/create',
      { name: 'Ana', email, password: 'a long enough secret 42', password_confirmation: 'a long enough secret 42', role: 'model' },
      { 'x-locale': 'en' },
    );
    expect(res.statusCode).toBe(201);
    await expect.poll(() => smtp.received.find((m) => m.to.includes(email)), { timeout: 5000 }).toBeTruthy();
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    expect(mail.from).toBe('no-reply@vitrina.test');
    expect(mail.raw).toMatch(/Subject: Verify your e-mail address/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    const unfolded = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toMatch(/\/en\/verify-email\/\d+\/[a-f0-9]{40}\?expires=\d+&signature=[a-f0-9]{64}/);
    expect(t.app.mailer.outbox).toHaveLength(0);
  });
});
