/**
 * The perceptual hash of a photo (issue 29): sharp-phash's 64-bit DCT hash (a 32 × 32 greyscale thumbnail, the 8 × 8
 * lowest frequencies compared with their mean), kept as a signed bigint. pHash is not mirror-invariant, so the hash of
 * the photo flipped left–right is computed too: it is the query's second key (stored photos keep one hash; an upload
 * is looked up with both), which finds a mirrored copy at the same distance as the original.
 */
import phash from 'sharp-phash';
import sharp from 'sharp';

export interface PhotoHashes {
  /** The photo's own hash. */
  hash: bigint;
  /** The hash of the photo mirrored left–right (looked up too, never stored). */
  mirrored: bigint;
}

/** The 64-character 0/1 string sharp-phash answers, as the signed 64-bit integer PostgreSQL's bigint stores. */
export function bitsToBigint(bits: string): bigint {
  if (!/^[01]{64}$/.test(bits)) throw new Error('perceptual hash: expected 64 bits');
  return BigInt.asIntN(64, BigInt(`0b${bits}`));
}

/** Hamming distance of two 64-bit hashes. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = BigInt.asUintN(64, a ^ b);
  let n = 0;
  while (x) {
    x &= x - 1n;
    n++;
  }
  return n;
}

/** The four 16-bit chunks (0…65535, most significant first) that the multi-index lookup finds a hash by. */
export function chunksOf(hash: bigint): [number, number, number, number] {
  const u = BigInt.asUintN(64, hash);
  return [Number((u >> 48n) & 0xffffn), Number((u >> 32n) & 0xffffn), Number((u >> 16n) & 0xffffn), Number(u & 0xffffn)];
}

/** Every 16-bit value within `radius` bits of `value` (radius 0: itself; 1: 17 values; 2: 137). */
export function chunkNeighbours(value: number, radius: number): number[] {
  const out = [value];
  if (radius >= 1) for (let i = 0; i < 16; i++) out.push(value ^ (1 << i));
  if (radius >= 2) for (let i = 0; i < 16; i++) for (let j = i + 1; j < 16; j++) out.push(value ^ (1 << i) ^ (1 << j));
  return out;
}

/** Hashes an encoded image (any format sharp reads): the photo and its mirror image. */
export async function hashPhoto(image: Buffer): Promise<PhotoHashes> {
  const { data, info } = await sharp(image).flop().raw().toBuffer({ resolveWithObject: true });
  const [own, flopped] = await Promise.all([
    phash(image),
    phash(data, { raw: { width: info.width, height: info.height, channels: info.channels } }),
  ]);
  return { hash: bitsToBigint(own), mirrored: bitsToBigint(flopped) };
}
