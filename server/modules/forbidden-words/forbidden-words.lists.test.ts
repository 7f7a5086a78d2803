import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileForbiddenWords, distinctWords, findForbiddenWords } from './forbidden-words.ts';
import { BUILT_IN_LISTS_DIR, loadForbiddenWordLists } from './forbidden-words.lists.ts';

const matcher = compileForbiddenWords(loadForbiddenWordLists());
const words = (text: string) => distinctWords(findForbiddenWords(text, matcher));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'forbidden-words-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const writeFile = (name: string, content: unknown) => {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

describe('built-in lists', () => {
  it('has one list per language, each with the three categories', () => {
    const files = fs.readdirSync(BUILT_IN_LISTS_DIR).sort();
    expect(files).toEqual(['de.json', 'en.json', 'es.json', 'pt_BR.json']);
    for (const list of loadForbiddenWordLists()) {
      expect(Object.keys(list.categories).sort(), list.source).toEqual(['coercion', 'minors', 'sexual_services']);
    }
    expect(matcher.size).toBeGreaterThan(300);
  });

  it.each([
    ['es', 'Chica nueva, servicio completo sin condón', ['servicio completo', 'sin condón']],
    ['es', 'Francés natural 50€ y griego incluido', ['Francés natural', 'griego incluido']],
    ['es', '80 euros el completo', ['80 euros el completo']],
    ['es', 'Soy colegiala, tengo 16 años', ['colegiala', '16 años']],
    ['es', 'soy m e n o r de edad', ['m e n o r de edad']],
    ['es', 'Recién llegada, sin papeles, tengo una deuda y me obligan', ['Recién llegada', 'sin papeles', 'deuda', 'me obligan']],
    ['en', 'Sweet teen, 17 years old, full service', ['teen', '17 years old', 'full service']],
    ['en', 'GFE, bareback, no condom, 200 roses', ['GFE', 'bareback', 'no condom', '200 roses']],
    ['en', 'They took my passport, I must pay off my debt', ['took my passport', 'pay off my debt']],
    ['de', 'Schulmädchen, 16 Jahre, ohne Gummi', ['Schulmädchen', '16 Jahre', 'ohne Gummi']],
    ['de', 'Minderjährige 15-jährige, ohne Papiere', ['Minderjährige', '15-jährige', 'ohne Papiere']],
    ['pt_BR', 'Novinha de 16 anos, programa completo sem camisinha', ['Novinha', '16 anos', 'programa completo', 'sem camisinha']],
    ['pt_BR', 'Sou obrigada, tenho uma dívida', ['Sou obrigada', 'dívida']],
    ['mixed', 'Hola! teen model, sin papeles, 16 Jahre', ['teen', 'sin papeles', '16 Jahre']],
  ])('flags %s: %s', (_, text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it.each([
    'Modelo profesional de 26 años, vivo en Menorca y trabajo en Madrid y Barcelona.',
    'Tengo 16 años de experiencia en pasarela; empecé hace 17 años.',
    'Mi hermana menor también es modelo. Precios al por menor para agencias.',
    'Sesión de fotos: 100 € la hora, servicio completo de maquillaje y peluquería.',
    'Hablo inglés y francés sin problemas; book completo disponible.',
    'Teenage Fanclub is my favourite band. Ten years of runway and catalogue work.',
    'Available for editorial, commercial and fitness shoots. Minor retouching included.',
    'Professionelles Model mit 10 Jahren Erfahrung, 16 Jahre Erfahrung im Tanz.',
    'Ich bin 28 Jahre alt und arbeite als Fotomodell. Nicht unter 18.',
    'Modelo com 25 anos, trabalho com moda há 16 anos. 10 anos de experiência.',
    'Disponível para campanhas, catálogos e desfiles em São Paulo.',
    'Prohibido a menores. Solo mayores de edad.',
    'Dreamteam, canteen, steen, menorquina, colegio, Lola, Lolo.',
  ])('leaves ordinary profile text alone: %s', (text) => {
    expect(words(text)).toEqual([]);
  });
});

describe('loadForbiddenWordLists', () => {
  it('adds an operator file (FORBIDDEN_WORDS_FILE) to the built-in lists', () => {
    const file = writeFile('extra.json', { categories: { local_slang: ['chica vip {24,24h}'] }, allow: ['vip 24 horas de atención'] });
    const lists = loadForbiddenWordLists(file);
    expect(lists.at(-1)).toMatchObject({ source: 'extra.json', categories: { local_slang: ['chica vip {24,24h}'] } });
    const extended = compileForbiddenWords(lists);
    expect(findForbiddenWords('Chica VIP 24h', extended)[0]).toMatchObject({ word: 'Chica VIP 24h', category: 'local_slang' });
    expect(findForbiddenWords('soy menor', extended)).toHaveLength(1);
  });

  it('stops with the file name and the problem when a file is missing or malformed', () => {
    expect(() => loadForbiddenWordLists(path.join(tmp, 'missing.json'))).toThrow(/missing\.json/);
    expect(() => loadForbiddenWordLists(writeFile('broken.json', '{"categories": '))).toThrow(/broken\.json/);
    expect(() => loadForbiddenWordLists(writeFile('shape.json', { categories: { minors: 'menor' } }))).toThrow(
      /shape\.json[\s\S]*categories\.minors/,
    );
    expect(() => loadForbiddenWordLists(writeFile('extra-key.json', { categories: {}, terms: [] }))).toThrow(/extra-key\.json/);
    expect(() => loadForbiddenWordLists(writeFile('Bad-Category.json', { categories: { 'Bad Category': ['x'] } }))).toThrow(
      /Bad-Category\.json[\s\S]*categories/,
    );
  });
});
