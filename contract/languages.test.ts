import { describe, expect, it } from 'vitest';
import { toLanguage, toLocaleTag } from './languages.ts';

describe('toLanguage', () => {
  it.each([
    ['es', 'es'],
    ['es-ES', 'es'],
    ['pt-BR', 'pt_BR'],
    ['pt_PT', 'pt_BR'],
    ['pt', 'pt_BR'],
    ['DE', 'de'],
    ['en_GB', 'en'],
  ])('maps %s to %s', (input, expected) => expect(toLanguage(input)).toBe(expected));
  it.each(['fr', '', 'legal', undefined, null])('knows nothing of %s', (input) => expect(toLanguage(input)).toBeUndefined());
  it('gives BCP 47 tags', () => expect(toLocaleTag('pt_BR')).toBe('pt-BR'));
});
