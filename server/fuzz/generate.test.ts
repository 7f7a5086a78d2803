/**
 * The fuzz suite's generators: a seed replays the same input, and the hostile input is what it claims to be.
 */
import { describe, expect, it } from 'vitest';
import { contactSchema } from '#contract/contact.ts';
import { Rng, encodeWtf, hostileImage, malformedMultipart, plausible, respell, spoiledBody } from './generate.ts';

describe('fuzz generators', () => {
  it('re-spells any path, a path without letters too', () => {
    const r = new Rng(7);
    for (let i = 0; i < 200; i++) {
      for (const path of ['/', '/api/models/1', '/1/2']) expect(respell(path, r).path).toMatch(/^\//);
    }
  });

  it('a seed gives the same sequence every time, another seed another one', () => {
    const draw = (seed: number) => {
      const r = new Rng(seed);
      return Array.from({ length: 50 }, () => r.next());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    expect(draw(42).every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('the same seed builds the same bodies', () => {
    const bodies = (seed: number) => {
      const r = new Rng(seed);
      return Array.from({ length: 20 }, () => JSON.stringify(spoiledBody([contactSchema], r)));
    };
    expect(bodies(7)).toEqual(bodies(7));
  });

  it('a plausible body passes the schema it was built from; a spoiled one differs from it', () => {
    const r = new Rng(1);
    expect(contactSchema.safeParse(plausible(contactSchema, r)).success).toBe(true);
    for (let i = 0; i < 50; i++)
      expect(JSON.stringify(spoiledBody([contactSchema], r))).not.toBe(JSON.stringify(plausible(contactSchema, new Rng(1))));
  });

  it('encodes lone surrogates as the bytes a client could send instead of throwing', () => {
    expect(encodeWtf('\ud800')).toBe('%ED%A0%80');
    expect(encodeWtf('a\udfffb')).toBe('a%ED%BF%BFb');
    expect(encodeWtf('😀 é')).toBe(encodeURIComponent('😀 é'));
  });

  it('multipart bodies are malformed or carry no decodable image, and hostile images are not images', () => {
    const r = new Rng(3);
    const kinds = new Set<string>();
    for (let i = 0; i < 200; i++) kinds.add(malformedMultipart(r).kind);
    expect([...kinds].sort()).toEqual([
      'multipart garbage',
      'multipart truncated',
      'multipart with a 300-character boundary',
      'multipart with a broken header',
      'multipart with another boundary',
      'multipart with undecodable image',
      'multipart without boundary',
    ]);
    const bomb = Array.from({ length: 50 }, () => hostileImage(r)).find((b) => b.subarray(1, 4).toString() === 'PNG');
    expect(bomb?.readUInt32BE(16)).toBe(100_000); // IHDR width
  });
});
