import { describe, expect, it } from 'vitest';
import {
  compileForbiddenWords,
  distinctWords,
  expandBraces,
  findForbiddenWords,
  joinSpeltOut,
  JUNCTION,
  skeleton,
  type ForbiddenWordsList,
} from './forbidden-words.ts';

const list: ForbiddenWordsList = {
  source: 'test',
  categories: {
    minors: ['menor{,es}', 'menor{,es} de edad', 'colegiala{,s}', 'teen{,s}', 'lolita', '{10..17} años'],
    sexual_services: ['servicio completo', 'sin condón', 'francés # €', '*porno*'],
    coercion: ['sin papeles', 'me obligan'],
  },
  allow: ['{hermana,hermano} menor', 'hace # años'],
};
const matcher = compileForbiddenWords([list]);

const find = (text: string) => findForbiddenWords(text, matcher);
const words = (text: string) => distinctWords(find(text));
const terms = (text: string) => find(text).map((m) => m.term);

describe('skeleton', () => {
  it('folds case, accents and compatibility forms, keeping each unit’s original range', () => {
    const view = skeleton('SÓY Ｍｅñor');
    expect(view.text).toBe('soy menor');
    // "ñ" is one code unit in, one out; the full-width letters map one to one too.
    expect(view.starts).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('drops invisible characters and combining overlays without losing their place in the original', () => {
    const original = 'm\u200be\u00adn\u2060o\ufeffr';
    const view = skeleton(original);
    expect(view.text).toBe('menor');
    expect(original.slice(view.starts[0], view.ends[4])).toBe(original);
    const struck = 'm\u0336e\u0336n\u0336';
    expect(skeleton(struck).text).toBe('men');
    expect(skeleton(struck).ends[2]).toBe(struck.length);
  });

  it('cuts runs of one character to three and stretches the last kept one over the whole run', () => {
    const view = skeleton('meeeeeenor');
    expect(view.text).toBe('meeenor');
    expect(view.ends[3]).toBe(7);
  });

  it('marks the gaps of words spelt out letter by letter with junctions, and leaves ordinary text alone', () => {
    const spelt = (text: string) => joinSpeltOut(skeleton(text))?.text.replaceAll(JUNCTION, '·');
    expect(spelt('soy m e n o r')).toBe('soy m·e·n·o·r');
    // A spelt-out run has no visible word boundaries: every junction may end a word.
    expect(spelt('m.e.n.o.r y m - e - n - o - r')).toBe('m·e·n·o·r·y·m·e·n·o·r');
    const view = joinSpeltOut(skeleton('ab c - d e'))!;
    expect(view.text).toBe(`ab c${JUNCTION}d${JUNCTION}e`);
    expect([view.starts[4], view.ends[4]]).toEqual([4, 7]);
    expect(joinSpeltOut(skeleton('soy modelo en Madrid'))).toBeNull();
    // Two one-letter words in a row are ordinary Spanish ("y a"), not spelling.
    expect(joinSpeltOut(skeleton('y a la playa'))).toBeNull();
  });
});

describe('expandBraces', () => {
  it('expands alternatives, optional endings, number ranges and several braces', () => {
    expect(expandBraces('menor{,es}')).toEqual(['menor', 'menores']);
    expect(expandBraces('{15..17} años')).toEqual(['15 años', '16 años', '17 años']);
    expect(expandBraces('{a,b} {x,y}')).toEqual(['a x', 'a y', 'b x', 'b y']);
    expect(() => expandBraces('menor{es')).toThrow(/unclosed/);
    expect(() => expandBraces('{17..15} años')).toThrow(/bad range/);
  });
});

describe('findForbiddenWords', () => {
  it('finds a plain term with its category and the original range', () => {
    const text = 'Hola, soy menor y busco trabajo';
    expect(find(text)).toEqual([{ word: 'menor', term: 'menor', category: 'minors', start: 10, end: 15 }]);
  });

  it.each([
    ['case and accents', 'soy MENÓR', 'MENÓR'],
    ['full-width letters', 'soy ｍｅｎｏｒ', 'ｍｅｎｏｒ'],
    ['mathematical letters', 'soy 𝐦𝐞𝐧𝐨𝐫', '𝐦𝐞𝐧𝐨𝐫'],
    ['Cyrillic look-alikes', 'soy mеnоr', 'mеnоr'],
    ['zero-width space', 'soy me\u200bnor', 'me\u200bnor'],
    ['zero-width joiner and BOM', 'soy m\u200de\ufeffnor', 'm\u200de\ufeffnor'],
    ['soft hyphen', 'soy me\u00adnor', 'me\u00adnor'],
    ['combining strike-through', 'soy m̶e̶n̶o̶r̶', 'm̶e̶n̶o̶r̶'],
    ['spaced letters', 'soy m e n o r', 'm e n o r'],
    ['dotted letters', 'soy m.e.n.o.r', 'm.e.n.o.r'],
    ['dashed letters', 'soy m-e-n-o-r', 'm-e-n-o-r'],
    ['letters between emoji', 'soy m🔥e🔥n🔥o🔥r', 'm🔥e🔥n🔥o🔥r'],
    ['repeated letters', 'soy meeeeenor', 'meeeeenor'],
    ['repeated final letters', 'soy colegialaaaaa', 'colegialaaaaa'],
    ['digits for letters', 'soy m3n0r', 'm3n0r'],
    ['1 for i and for l, 7 for t, 4 for a', 'soy l0l1t4', 'l0l1t4'],
    ['symbols for letters', 'c0l3gi@l@ $in papeles', 'c0l3gi@l@'],
    ['5 for s', 'teen5', 'teen5'],
  ])('defeats %s', (_, text, expected) => {
    expect(words(text)[0]).toBe(expected);
  });

  it('matches multi-word terms across any spacing or punctuation, or none', () => {
    expect(words('Ofrezco servicio completo')).toEqual(['servicio completo']);
    expect(words('SERVICIO   COMPLETO')).toEqual(['SERVICIO   COMPLETO']);
    expect(words('servicio\ncompleto')).toEqual(['servicio\ncompleto']);
    expect(words('servicio-completo, servicio_completo')).toEqual(['servicio-completo', 'servicio_completo']);
    expect(words('#serviciocompleto')).toEqual(['serviciocompleto']);
    expect(words('s e r v i c i o  c o m p l e t o')).toEqual(['s e r v i c i o  c o m p l e t o']);
    expect(words('todo sin c0nd0n')).toEqual(['sin c0nd0n']);
    expect(words('sin papeles y me obligan')).toEqual(['sin papeles', 'me obligan']);
  });

  it('reads words spelt out letter by letter, several in a row, and with repeats or stand-ins', () => {
    expect(words('soy m e n o r y m-e-n-o-r')).toEqual(['m e n o r y m-e-n-o-r'.slice(0, 9), 'm-e-n-o-r']);
    expect(words('t e e n, c.o.l.e.g.i.a.l.a.a.a, l 0 l 1 t 4')).toEqual(['t e e n', 'c.o.l.e.g.i.a.l.a.a.a', 'l 0 l 1 t 4']);
    expect(words('tengo 1 6 años')).toEqual(['1 6 años']);
    expect(words('s i n   p a p e l e s')).toEqual(['s i n   p a p e l e s']);
    // Ordinary one-letter words stay ordinary.
    expect(find('Fotos de 2 a 3 h, o y e')).toEqual([]);
  });

  it('matches ages under 18 but not other numbers', () => {
    expect(words('tengo 16 años')).toEqual(['16 años']);
    expect(words('tengo 17 AÑOS')).toEqual(['17 AÑOS']);
    expect(words('tengo 16años')).toEqual(['16años']);
    expect(words('tengo 16 anos')).toEqual(['16 anos']);
    for (const clean of ['tengo 26 años', 'tengo 18 años', 'tengo 116 años', 'tengo 1 6 0 años', 'desde 2016 años después']) {
      expect(find(clean), clean).toEqual([]);
    }
  });

  it('matches numbers where the term has #', () => {
    expect(words('francés 50€')).toEqual(['francés 50€']);
    expect(words('FRANCES: 49,90 €')).toEqual(['FRANCES: 49,90 €']);
    expect(find('hablo francés')).toEqual([]);
  });

  it('does not match inside other words (whole words only)', () => {
    for (const clean of [
      'Vivo en Menorca',
      'soy menorquina',
      'Teenage Fanclub',
      'ten years',
      'canteen',
      'me no reservo nada',
      'neither you nor me nor them',
      'colegial',
      'sin papel',
      'menor­ca',
    ]) {
      expect(find(clean), clean).toEqual([]);
    }
  });

  it("honours a leading/trailing * as an open word boundary (the match is the term's part of the word)", () => {
    expect(words('nada de pornografía')).toEqual(['porno']);
    expect(find('antiporno')[0]).toMatchObject({ word: 'porno', start: 4, end: 9 });
  });

  it('keeps the longest match and drops the ones inside it', () => {
    expect(find('soy menor de edad').map((m) => m.word)).toEqual(['menor de edad']);
    expect(terms('menores de edad no')).toEqual(['menores de edad']);
  });

  it('lets allowed phrases cover a match', () => {
    expect(find('mi hermana menor también posa')).toEqual([]);
    expect(find('empecé hace 16 años')).toEqual([]);
    // Only what the allowed phrase covers: the second "menor" is still reported.
    expect(words('mi hermana menor y yo, menor')).toEqual(['menor']);
    expect(find('mi hermana menor y yo, menor')[0]!.start).toBe(23);
  });

  it('maps ranges back to the original text after astral characters, accents and removed characters', () => {
    const text = '😀 Ésta\u200b es mi foto 🙂 m e n o r y sin\u200bcondón';
    const found = find(text);
    expect(found.map((m) => m.word)).toEqual(['m e n o r', 'sin\u200bcondón']);
    for (const m of found) expect(text.slice(m.start, m.end)).toBe(m.word);
  });

  it('reports every occurrence but each distinct word once in distinctWords', () => {
    expect(find('menor, menor y MENOR')).toHaveLength(3);
    expect(words('menor, menor y MENOR')).toEqual(['menor', 'MENOR']);
  });

  it('answers nothing for empty text or empty lists', () => {
    expect(find('')).toEqual([]);
    expect(findForbiddenWords('menor', compileForbiddenWords([]))).toEqual([]);
  });

  it('gets through hostile input (no catastrophic backtracking) and fields longer than the route allows', () => {
    const hostile = [
      '1'.repeat(10_000),
      'lo' + 'l1'.repeat(4_999),
      'e3'.repeat(5_000),
      '100 € '.repeat(1_666),
      '16 '.repeat(3_333),
      'm e n o r '.repeat(1_000),
      '\u200b'.repeat(10_000),
      '😀'.repeat(5_000),
      'm\u0336'.repeat(5_000),
    ];
    for (const text of hostile) expect(() => find(text)).not.toThrow();
    // Saving routes may check longer fields than the route accepts.
    expect(find('m e n o r '.repeat(50_000).slice(0, 400_000) + 'menor').length).toBeGreaterThan(1);
    // Spelt-out words one after another are all found (every junction may end a word).
    expect(find('m e n o r '.repeat(1_000))).toHaveLength(1_000);
  });
});

describe('compileForbiddenWords', () => {
  it('names the list of a term it cannot compile', () => {
    expect(() => compileForbiddenWords([{ source: 'extra.json', categories: { x: ['sin{papeles'] } }])).toThrow(/extra\.json.*unclosed/);
    expect(() => compileForbiddenWords([{ source: 'extra.json', categories: { x: ['€ !'] } }])).toThrow(/extra\.json.*no letter/);
  });

  it('checks a term that several lists share once, under the first list’s wording', () => {
    const m = compileForbiddenWords([
      { source: 'es', categories: { minors: ['16 años'] } },
      { source: 'pt_BR', categories: { minors: ['16 anos'] } },
    ]);
    expect(m.size).toBe(1);
    expect(findForbiddenWords('16 anos', m)[0]!.term).toBe('16 años');
  });
});
