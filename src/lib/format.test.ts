import { describe, expect, it } from 'vitest';
import { formatDate, truncate } from './format.ts';
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
});
