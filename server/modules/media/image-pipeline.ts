/**
 * The server-side image pipeline, pure: bytes in → WebP variants (+ a small JPEG for screening) out, or a typed
 * refusal. Nothing here touches storage or the database, so a refusal or a crash leaves nothing behind.
 *
 * - The type is decided from the bytes (magic numbers, then sharp's own header reading), never from the file name
 *   or the Content-Type the browser sent.
 * - Size and pixel limits are checked before anything is decoded: a 30,000 × 30,000 header costs a header read,
 *   not 900 MP of memory (pixel-flood protection); sharp's `limitInputPixels` is the second fence.
 * - The photo is decoded once (JPEG shrink-on-load where possible), turned upright from its EXIF orientation and
 *   re-encoded as WebP at each variant width it reaches (never upscaled). sharp writes no metadata unless asked, so
 *   EXIF (GPS included), XMP, IPTC and ICC profiles are all gone from what we store.
 * - A truncated or damaged file is refused (`failOn: 'truncated'`), not stored grey-bottomed.
 */
import sharp, { type Metadata } from 'sharp';
import type { RefusalReason } from '#contract/media.ts';

export type SourceFormat = 'jpeg' | 'png' | 'webp' | 'avif';
export type PipelineRefusal = Extract<RefusalReason, 'too_large' | 'too_many_pixels' | 'not_an_image' | 'unsupported_type' | 'corrupt'>;

export interface PipelineOptions {
  maxBytes: number;
  maxPixels: number;
  /** Variant widths, e.g. [320, 800, 1600]. */
  widths: readonly number[];
  /** WebP quality (1–100). */
  quality?: number;
  /** Longest side of the screening copy. */
  moderationSize?: number;
}

export interface Variant {
  width: number;
  height: number;
  data: Buffer;
}

export interface ProcessedImage {
  sourceFormat: SourceFormat;
  /** Upright size of the largest stored variant. */
  width: number;
  height: number;
  /** Ascending by width; the widths actually written. */
  variants: Variant[];
  /** A small JPEG (no metadata) for the moderation provider. */
  moderationCopy: { jpeg: Buffer; width: number; height: number };
}

export type PipelineResult = { ok: true; image: ProcessedImage } | { ok: false; reason: PipelineRefusal; detail: string };

type Sniffed = { kind: 'accepted'; format: 'jpeg' | 'png' | 'webp' | 'isobmff' } | { kind: 'other-image'; format: string } | null;

const ascii = (b: Buffer, start: number, end: number) => b.subarray(start, end).toString('latin1');

/** What the first bytes say the file is (null: not an image we know of at all). */
export function sniffImageType(b: Buffer): Sniffed {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { kind: 'accepted', format: 'jpeg' };
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { kind: 'accepted', format: 'png' };
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return { kind: 'accepted', format: 'webp' };
  // ISO base media file (HEIF, AVIF): a `ftyp` box first. Whether sharp can decode it (AV1 yes, HEVC no) is decided
  // from the header below.
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') {
    const brands = ascii(b, 8, Math.min(b.length, 8 + (b.readUInt32BE(0) || 16) - 8));
    if (/avif|avis|heic|heix|hevc|hevx|heim|heis|mif1|msf1/.test(brands)) return { kind: 'accepted', format: 'isobmff' };
    return null;
  }
  if (b.length >= 6 && /^GIF8[79]a$/.test(ascii(b, 0, 6))) return { kind: 'other-image', format: 'gif' };
  if (b.length >= 4 && (ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*')) return { kind: 'other-image', format: 'tiff' };
  if (b.length >= 2 && ascii(b, 0, 2) === 'BM') return { kind: 'other-image', format: 'bmp' };
  if (b.length >= 4 && b.readUInt32BE(0) === 0x00000100) return { kind: 'other-image', format: 'ico' };
  if (b.length >= 4 && ascii(b, 0, 4) === '8BPS') return { kind: 'other-image', format: 'psd' };
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0x0a) return { kind: 'other-image', format: 'jxl' };
  if (b.length >= 12 && ascii(b, 4, 8) === 'JXL ') return { kind: 'other-image', format: 'jxl' };
  const head = b
    .subarray(0, 512)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head))
    return { kind: 'other-image', format: 'svg' };
  return null;
}

const refuse = (reason: PipelineRefusal, detail: string): PipelineResult => ({ ok: false, reason, detail });

function decodeFailure(err: unknown): PipelineResult {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return refuse('too_many_pixels', message);
  return refuse('corrupt', message);
}

/** The widths to write for an upright image `width` wide: every configured width below it, and at most the largest. */
export function variantWidths(width: number, widths: readonly number[]): number[] {
  const sorted = [...new Set(widths)].sort((a, b) => a - b);
  const largest = sorted.at(-1) ?? width;
  const out = sorted.filter((w) => w < width && w < largest);
  out.push(Math.min(width, largest));
  return [...new Set(out)].sort((a, b) => a - b);
}

export async function processImage(bytes: Buffer, opts: PipelineOptions): Promise<PipelineResult> {
  const quality = opts.quality ?? 80;
  const moderationSize = opts.moderationSize ?? 640;
  if (bytes.length > opts.maxBytes) return refuse('too_large', `${bytes.length} bytes > ${opts.maxBytes}`);
  const sniffed = sniffImageType(bytes);
  if (!sniffed) return refuse('not_an_image', 'no known image signature');
  if (sniffed.kind === 'other-image') return refuse('unsupported_type', sniffed.format);

  // The header only: cheap even for a huge or hostile image.
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (err) {
    return decodeFailure(err);
  }
  let sourceFormat: SourceFormat;
  if (sniffed.format === 'isobmff') {
    if (meta.format !== 'heif') return refuse('corrupt', `heif signature, ${meta.format} header`);
    // sharp's prebuilt libheif decodes AV1 (AVIF) only; HEVC (the iPhone's HEIC) is patent-encumbered and absent.
    if (meta.compression !== 'av1') return refuse('unsupported_type', `heif/${meta.compression ?? 'unknown'}`);
    sourceFormat = 'avif';
  } else {
    if (meta.format !== sniffed.format) return refuse('corrupt', `${sniffed.format} signature, ${meta.format} header`);
    sourceFormat = sniffed.format;
  }
  const width = meta.width ?? 0;
  // Animated WebP/AVIF: only the first frame is used; its height is pageHeight.
  const height = meta.pageHeight ?? meta.height ?? 0;
  if (!width || !height) return refuse('corrupt', 'no dimensions');
  if (width * height > opts.maxPixels) return refuse('too_many_pixels', `${width}×${height} > ${opts.maxPixels} px`);

  try {
    // EXIF orientations 5–8 swap the axes.
    const upright = (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
    const widths = variantWidths(upright.width, opts.widths);
    const largest = widths.at(-1)!;
    // Decode once, upright, at the largest variant's size, to 8-bit sRGB pixels; every output is made from those.
    const { data, info } = await sharp(bytes, { limitInputPixels: opts.maxPixels, failOn: 'truncated', sequentialRead: true })
      .rotate()
      .resize({ width: largest, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };

    const variants: Variant[] = [];
    for (const w of widths) {
      let pipeline = sharp(data, raw);
      if (w < info.width) pipeline = pipeline.resize({ width: w });
      const out = await pipeline.webp({ quality, effort: 4 }).toBuffer({ resolveWithObject: true });
      variants.push({ width: out.info.width, height: out.info.height, data: out.data });
    }
    const mod = await sharp(data, raw)
      .resize({ width: moderationSize, height: moderationSize, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    const top = variants.at(-1)!;
    return {
      ok: true,
      image: {
        sourceFormat,
        width: top.width,
        height: top.height,
        variants,
        moderationCopy: { jpeg: mod.data, width: mod.info.width, height: mod.info.height },
      },
    };
  } catch (err) {
    return decodeFailure(err);
  }
}
