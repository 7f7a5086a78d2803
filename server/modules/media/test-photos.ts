/**
 * Tests and benchmark only: varied "photos" drawn on the spot with sharp — a background, a dozen overlapping soft
 * shapes of random size, colour and opacity, and fine grain — so that no two look alike, and the copies a thief makes
 * of one (half size, JPEG quality 50, 5 % cropped off each side, mirrored). Not pictures of people: honest about
 * what the false-match rate is measured on.
 */
import sharp from 'sharp';

function random(seed: number): () => number {
  let s = (seed * 2_654_435_761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4_294_967_296;
  };
}

/** A 800 × 1000 JPEG, different for every seed. */
export async function variedPhoto(seed: number, width = 800, height = 1000): Promise<Buffer> {
  const rnd = random(seed + 1);
  const colour = () => `rgb(${Math.floor(rnd() * 256)},${Math.floor(rnd() * 256)},${Math.floor(rnd() * 256)})`;
  const shapes = Array.from({ length: 12 }, () => {
    const cx = rnd() * width;
    const cy = rnd() * height;
    const rx = 30 + rnd() * width * 0.4;
    const ry = 30 + rnd() * height * 0.4;
    return rnd() < 0.5
      ? `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${colour()}" opacity="${0.3 + rnd() * 0.7}"/>`
      : `<rect x="${cx - rx / 2}" y="${cy - ry / 2}" width="${rx}" height="${ry}" fill="${colour()}" opacity="${0.3 + rnd() * 0.7}" transform="rotate(${rnd() * 90} ${cx} ${cy})"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${colour()}"/>${shapes}</svg>`;
  const base = await sharp(Buffer.from(svg)).raw().toBuffer({ resolveWithObject: true });
  const px = base.data;
  for (let i = 0; i < px.length; i++) px[i] = Math.max(0, Math.min(255, px[i]! + Math.floor(rnd() * 17) - 8));
  return sharp(px, { raw: base.info }).jpeg({ quality: 90 }).toBuffer();
}

export type CopyKind = 'half' | 'q50' | 'crop5' | 'mirror';
export const COPY_KINDS: readonly CopyKind[] = ['half', 'q50', 'crop5', 'mirror'];

/** The copy of `photo` a re-upload would bring: resized to half, recompressed at q50, 5 % off each side, or mirrored. */
export async function copyOf(photo: Buffer, kind: CopyKind): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  switch (kind) {
    case 'half':
      return sharp(photo)
        .resize(Math.round(width / 2))
        .jpeg({ quality: 85 })
        .toBuffer();
    case 'q50':
      return sharp(photo).jpeg({ quality: 50 }).toBuffer();
    case 'crop5': {
      const dx = Math.round(width * 0.05);
      const dy = Math.round(height * 0.05);
      return sharp(photo)
        .extract({ left: dx, top: dy, width: width - 2 * dx, height: height - 2 * dy })
        .jpeg({ quality: 85 })
        .toBuffer();
    }
    case 'mirror':
      return sharp(photo).flop().jpeg({ quality: 85 }).toBuffer();
  }
}
