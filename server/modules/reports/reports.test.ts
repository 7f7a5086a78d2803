/** The reports service without HTTP: filing, listing and reading a report (the routes only parse and answer). */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reports } from '#server/db/schema.ts';
import { buildModel } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/test-app.ts';
import { fileReport, getReport, listReports, type Filing } from './reports.ts';

let t: TestApp;
let adId: number;

beforeAll(async () => {
  t = await createTestApp();
  adId = (await buildModel(t.database.db, { name: 'Servicio', photos: 1 })).adId;
});
afterAll(async () => {
  await t.close();
});

/** A filing from `ip`, counting how often the limits were asked. */
function filing(ipHash: string) {
  const spent = { n: 0 };
  const f: Filing = { ipHash, language: 'es', reporterUserId: null, log: t.app.log, throttle: async () => void spent.n++ };
  return { f, spent };
}

// The services without HTTP: what the route only parses and answers around.
describe('reports service', () => {
  it('a bot gets a receipt, but nothing is stored and no limit is spent', async () => {
    const { f, spent } = filing('bot-hash');
    const input = { ad_id: adId, reason: 'spam' as const, details: 'Un texto de prueba bastante largo.', website: 'http://spam.test' };
    const receipt = await fileReport(t.app, input, f);
    expect(receipt).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(await t.database.db.select().from(reports).where(eq(reports.receipt, receipt))).toHaveLength(0);
    expect(spent.n).toBe(0);
  });

  it('files a notice once: a repeat gives the same receipt without spending the limits again', async () => {
    const { f, spent } = filing('person-hash');
    const input = { ad_id: adId, reason: 'not_the_person' as const, details: 'Las fotos son de otra persona, no de ella.' };
    const receipt = await fileReport(t.app, input, f);
    expect(await fileReport(t.app, input, f)).toBe(receipt);
    expect(spent.n).toBe(1);
    const [row] = await t.database.db.select().from(reports).where(eq(reports.receipt, receipt));
    expect(await getReport(t.database.db, row!.id)).toMatchObject({ receipt, status: 'open', reason: 'not_the_person' });
    const list = await listReports(t.database.db, { status: 'open', page: 1, per_page: 20 });
    expect(list.data.map((r) => r.receipt)).toContain(receipt);
    expect(list.meta).toMatchObject({ current_page: 1, per_page: 20 });
  });
});
