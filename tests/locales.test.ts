// @vitest-environment node
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '#contract/languages.ts';

type Tree = { [k: string]: string | Tree };
const flatten = (o: Tree, prefix = ''): Record<string, string> =>
  Object.entries(o).reduce<Record<string, string>>((acc, [k, v]) => {
    if (typeof v === 'string') acc[prefix + k] = v;
    else Object.assign(acc, flatten(v, `${prefix}${k}.`));
    return acc;
  }, {});
const locales = Object.fromEntries(
  LANGUAGES.map((l) => [l, flatten(JSON.parse(fs.readFileSync(new URL(`../locales/${l}.json`, import.meta.url), 'utf8')) as Tree)]),
);

describe('locale files', () => {
  it('all four languages have exactly the same keys', () => {
    const all = new Set(Object.values(locales).flatMap((l) => Object.keys(l)));
    for (const lng of LANGUAGES) {
      const missing = [...all].filter((k) => !(k in locales[lng]!));
      expect(missing, `${lng} lacks keys`).toEqual([]);
    }
  });

  it('has no empty translation and keeps interpolation variables consistent', () => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, es] of Object.entries(locales.es!)) {
      for (const lng of LANGUAGES) {
        const value = locales[lng]![key]!;
        expect(value.trim(), `${lng}:${key}`).not.toBe('');
        expect(vars(value), `${lng}:${key}`).toEqual(vars(es));
      }
    }
  });

  it('uses the Spanish wording of the spec as the es values', () => {
    const es = locales.es!;
    expect(es['common.somethingHappened']).toBe('¡Ha ocurrido algo!');
    expect(es['common.operationError']).toBe('Error en la operación');
    expect(es['common.unknownError']).toBe('Error desconocido');
    expect(es['common.errorTitle']).toBe('Error!');
    expect(es['common.close']).toBe('Cerrar');
    expect(es['notices.adDeleted']).toBe('Anuncio eliminado!');
    expect(es['notices.photoDeleted']).toBe('Foto eliminada!');
    expect(es['notices.profileCreated']).toBe('El perfil se ha creado con éxito!');
    expect(es['notices.updated']).toBe('Se ha actualizado con éxito!');
    expect(es['notices.profileUpdated']).toBe('El perfil se ha actualizado con éxito!');
    expect(es['notices.adPendingReview']).toBe('Anuncio pendiente de revisión!');
    expect(es['notices.adStatusChanged']).toBe('El estado del anuncio ha cambiado!');
    expect(es['notices.emailVerifiedTitle']).toBe('¡Correo verificado!');
    expect(es['notices.emailVerifiedText']).toBe('Tu correo electrónico ha sido verificado.');
    expect(es['notices.createProfile']).toBe('Crear perfil');
    expect([
      es['statuses.unverified'],
      es['statuses.pending'],
      es['statuses.active'],
      es['statuses.rejected'],
      es['statuses.suspended'],
      es['statuses.paused'],
    ]).toEqual(['No verificado', 'Revisión pendiente', 'Verificado', 'Rechazado', 'Bloqueado', 'Pausado']);
  });
});

describe('legal documents', () => {
  const dir = new URL('../src/features/legal/content/', import.meta.url);
  const slugs = ['cookies-policy', 'privacy-policy', 'terms-and-conditions', 'terms-and-conditions-to-post'];
  it.each(slugs)('%s exists in the four languages with the same structure', (slug) => {
    const docs = LANGUAGES.map(
      (l) =>
        JSON.parse(fs.readFileSync(new URL(`${slug}.${l}.json`, dir), 'utf8')) as {
          title: string;
          sections: { heading: string; paragraphs: string[] }[];
        },
    );
    const shape = (d: (typeof docs)[number]) => d.sections.map((s) => s.paragraphs.length);
    for (const d of docs) {
      expect(d.title.length).toBeGreaterThan(3);
      expect(d.sections.length).toBeGreaterThan(3);
      expect(shape(d)).toEqual(shape(docs[0]!));
    }
  });
});
