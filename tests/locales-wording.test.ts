// @vitest-environment node
/**
 * Wording a new user found misleading (issue 24 D): the footer names the posting terms as their page is titled; German
 * says «Agentur», not «Publizist» (a journalist); the staff chat panel's account badge says the e-mail was verified,
 * not the person.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '#contract/languages.ts';

type Tree = { [k: string]: string | Tree };
const read = (file: string) => JSON.parse(fs.readFileSync(new URL(file, import.meta.url), 'utf8')) as Tree;
const at = (tree: Tree, key: string): string | undefined => {
  let cur: string | Tree | undefined = tree;
  for (const part of key.split('.')) cur = typeof cur === 'object' ? cur[part] : undefined;
  return typeof cur === 'string' ? cur : undefined;
};

describe('wording', () => {
  it.each(LANGUAGES)('%s: the footer link to the posting terms is the page’s own title', (lng) => {
    const title = (read(`../src/features/legal/content/terms-and-conditions-to-post.${lng}.json`) as { title: string }).title;
    expect(at(read(`../locales/${lng}.json`), 'pages.termsAndConditionsToPost')).toBe(title);
  });

  it('German never calls an agency «Publizist»', () => {
    const text = fs.readFileSync(new URL('../locales/de.json', import.meta.url), 'utf8');
    expect(text.match(/publizist\w*/gi) ?? []).toEqual([]);
  });

  it.each(LANGUAGES)('%s: the staff chat panel’s «verified» badge names the e-mail', (lng) => {
    const value = at(read(`../locales/${lng}.json`), 'messenger.panel.accountStatus.active') ?? '';
    expect(value).toMatch(/e-?mail/i);
  });
});
