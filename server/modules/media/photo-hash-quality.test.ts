/**
 * The perceptual hash's quality on generated photos, without a database (a file of its own: it is a minute of the suite
 * on 2 cores). The lookups and flags built on it are in photo-hashes.test.ts.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hashImage, MATCH_DISTANCE } from './photo-hashes.ts';
import { hammingDistance } from './perceptual-hash.ts';
import { COPY_KINDS, copyOf, variedPhoto } from './test-photos.ts';

/** Least distance between a stored image's hashes and an upload's keys, as the lookup computes it. */
const distance = (stored: { full: bigint; centre: bigint }, keys: bigint[]) =>
  Math.min(...[stored.full, stored.centre].flatMap((s) => keys.map((k) => hammingDistance(s, k))));

describe('the perceptual hash', () => {
  it('finds a photo in its half-size, quality-50, 5 %-cropped and mirrored copies, and matches none of 1,000 other photos', async () => {
    const originals = await Promise.all([1, 2, 3, 4, 5].map((s) => variedPhoto(s)));
    for (const photo of originals) {
      const stored = (await hashImage(photo))!;
      for (const kind of COPY_KINDS) {
        const copy = (await hashImage(await copyOf(photo, kind)))!;
        expect(distance(stored, copy.keys), kind).toBeLessThanOrEqual(MATCH_DISTANCE);
      }
    }
    // 1,000 other photos (variedPhoto seeds 1001…2000, at the stored copies' size): none within the threshold of the
    // originals nor of each other.
    const others: { full: bigint; centre: bigint; keys: bigint[] }[] = [];
    for (let s = 1001; s <= 2000; s++) others.push((await hashImage(await variedPhoto(s, 320, 400)))!);
    const probes = await Promise.all(originals.map(async (p) => (await hashImage(p))!));
    let falseMatches = 0;
    for (const o of others) for (const p of probes) if (distance(o, p.keys) <= MATCH_DISTANCE) falseMatches++;
    for (let i = 0; i < others.length; i++)
      for (let j = i + 1; j < others.length; j++) if (distance(others[i]!, others[j]!.keys) <= MATCH_DISTANCE) falseMatches++;
    expect(falseMatches).toBe(0);
  }, 300_000);

  it('does not hash a plain picture (all flat pictures share one hash)', async () => {
    const flat = await sharp({ create: { width: 400, height: 500, channels: 3, background: '#3366cc' } })
      .jpeg()
      .toBuffer();
    expect(await hashImage(flat)).toBeNull();
  });
});
