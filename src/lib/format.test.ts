import { describe, expect, it } from 'vitest';
import { formatDate, truncate } from './format.ts';
import { LANGUAGES, toLocaleTag } from '#contract/languages.ts';
import { formatTitle } from './page-title.ts';

describe('truncate', () => {
  it('leaves short text alone', () => expect(truncate('Hola', 10)).toBe('Hola'));
  it('cuts on a word boundary and adds an ellipsis', () =>
    expect(truncate('Modelo verificada en Oviedo centro', 20)).toBe('Modelo verificada…'));
  it('cuts inside a long word when there is no space', () => expect(truncate('a'.repeat(30), 10)).toBe(`${'a'.repeat(9)}…`));
});

describe('formatTitle', () => {
  it('is the page name followed by the product name', () => expect(formatTitle('Inicio')).toBe('Inicio · Vitrina'));
  it('is the product name alone without a page', () => expect(formatTitle()).toBe('Vitrina'));
});

describe('formatDate', () => {
  it('writes dates in the interface language', () => {
    expect(formatDate('2026-11-22', 'es')).toBe('22 de noviembre de 2026');
    expect(formatDate('2026-11-22', 'pt_BR')).toBe('22 de novembro de 2026');
  });

  it("says what Intl's long date says, every day of a year, in the four languages", () => {
    for (const lng of LANGUAGES) {
      const intl = new Intl.DateTimeFormat(toLocaleTag(lng), { dateStyle: 'long' });
      for (let day = 0; day < 366; day++) {
        const date = new Date(2028, 0, 1 + day, 12);
        expect(formatDate(date, lng)).toBe(intl.format(date));
      }
    }
    expect(formatDate('2026-11-22T10:00:00', 'de')).toBe('22. November 2026');
    expect(formatDate('2026-11-22T10:00:00', 'en')).toBe('November 22, 2026');
  });
});
