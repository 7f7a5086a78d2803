import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_VARIANT_WIDTHS } from '#contract/media.ts';
import { processImage, sniffImageType, variantWidths, type PipelineOptions } from './image-pipeline.ts';
import { PLANTED, jpeg, jpegWithGps, pixelFloodPng, png, textFile } from './test-images.ts';

const opts: PipelineOptions = { maxBytes: 15 * 1024 * 1024, maxPixels: 40_000_000, widths: IMAGE_VARIANT_WIDTHS };

async function accepted(bytes: Buffer, o = opts) {
  const r = await processImage(bytes, o);
  if (!r.ok) throw new Error(`refused: ${r.reason} (${r.detail})`);
  return r.image;
}

describe('image pipeline', () => {
  it('re-encodes a JPEG to WebP variants at 320, 800 and 1600 px, never larger than the photo', async () => {
    const big = await accepted(await jpeg(2400, 1800));
    expect(big.sourceFormat).toBe('jpeg');
    expect(big.variants.map((v) => [v.width, v.height])).toEqual([
      [320, 240],
      [800, 600],
      [1600, 1200],
    ]);
    expect([big.width, big.height]).toEqual([1600, 1200]);
    for (const v of big.variants) {
      const m = await sharp(v.data).metadata();
      expect(m.format).toBe('webp');
      expect([m.width, m.height]).toEqual([v.width, v.height]);
    }
    // A photo narrower than the largest variant keeps its own width as the largest: no upscaling.
    const small = await accepted(await jpeg(1000, 750));
    expect(small.variants.map((v) => v.width)).toEqual([320, 800, 1000]);
    const tiny = await accepted(await jpeg(200, 150));
    expect(tiny.variants.map((v) => v.width)).toEqual([200]);
    expect(variantWidths(800, [320, 800, 1600])).toEqual([320, 800]);
    expect(variantWidths(5000, [1600, 320, 800])).toEqual([320, 800, 1600]);
  });

  it('strips EXIF (GPS included) and XMP, and applies the EXIF orientation', async () => {
    const input = await jpegWithGps();
    const inMeta = await sharp(input).metadata();
    // The test file really carries what we want gone.
    expect(inMeta.exif).toBeDefined();
    expect(inMeta.xmp).toBeDefined();
    expect(inMeta.orientation).toBe(6);
    expect(input.includes(PLANTED.datum)).toBe(true);
    expect(inMeta.exif!.includes(Buffer.from([0x88, 0x25])) || inMeta.exif!.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const image = await accepted(input);
    // Stored 400 × 300 with "rotate 90°": upright it is 300 wide, 400 high.
    expect([image.width, image.height]).toEqual([300, 400]);
    for (const bytes of [...image.variants.map((v) => v.data), image.moderationCopy.jpeg]) {
      const m = await sharp(bytes).metadata();
      expect(m.exif).toBeUndefined();
      expect(m.xmp).toBeUndefined();
      expect(m.iptc).toBeUndefined();
      expect(m.icc).toBeUndefined();
      expect(m.orientation).toBeUndefined();
      for (const planted of Object.values(PLANTED)) expect(bytes.includes(planted)).toBe(false);
      expect(bytes.includes('Exif')).toBe(false);
      expect(bytes.includes('XMP ')).toBe(false);
    }
  });

  it('goes by the bytes: a PNG named .jpg is read as the PNG it is', async () => {
    // The pipeline never sees the name; sniffing and sharp's header agree on PNG.
    const image = await accepted(await png(640, 480));
    expect(image.sourceFormat).toBe('png');
    expect(image.variants.map((v) => v.width)).toEqual([320, 640]);
  });

  it('reads WebP and AVIF too', async () => {
    const base = sharp({ create: { width: 500, height: 400, channels: 3, background: '#a33' } });
    expect((await accepted(await base.clone().webp().toBuffer())).sourceFormat).toBe('webp');
    expect((await accepted(await base.clone().avif().toBuffer())).sourceFormat).toBe('avif');
  });

  it('makes a small JPEG copy for screening', async () => {
    const image = await accepted(await jpeg(2400, 1800));
    expect(Math.max(image.moderationCopy.width, image.moderationCopy.height)).toBe(640);
    expect((await sharp(image.moderationCopy.jpeg).metadata()).format).toBe('jpeg');
  });

  it('refuses a text file named .jpg as not an image', async () => {
    expect(await processImage(textFile(), opts)).toMatchObject({ ok: false, reason: 'not_an_image' });
    expect(await processImage(Buffer.alloc(0), opts)).toMatchObject({ ok: false, reason: 'not_an_image' });
  });

  it('refuses a truncated JPEG as corrupt', async () => {
    const whole = await jpeg(1200, 900);
    const cut = whole.subarray(0, Math.floor(whole.length * 0.6));
    expect(await processImage(cut, opts)).toMatchObject({ ok: false, reason: 'corrupt' });
    // Only the header left: still a JPEG signature, nothing decodable.
    expect(await processImage(whole.subarray(0, 20), opts)).toMatchObject({ ok: false, reason: 'corrupt' });
  });

  it('refuses a 30,000 × 30,000 image before decoding it (pixel flood)', async () => {
    const flood = pixelFloodPng();
    expect(flood.length).toBeLessThan(200);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const r = await processImage(flood, opts);
    expect(r).toMatchObject({ ok: false, reason: 'too_many_pixels' });
    expect(performance.now() - started).toBeLessThan(10_000);
    // Generous bounds for a shared machine, yet far below what decoding would cost: 900 MP of RGB is 2.7 GB, and
    // seconds of work.
    expect(process.memoryUsage().rss - before).toBeLessThan(1024 * 1024 * 1024);
  });

  it('refuses files over the size limit and images over the pixel limit', async () => {
    const photo = await jpeg(1200, 900);
    expect(await processImage(photo, { ...opts, maxBytes: photo.length - 1 })).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await processImage(photo, { ...opts, maxPixels: 1200 * 900 - 1 })).toMatchObject({ ok: false, reason: 'too_many_pixels' });
    expect((await processImage(photo, { ...opts, maxPixels: 1200 * 900 })).ok).toBe(true);
  });

  it('refuses images in formats we do not take, from their bytes', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect(await processImage(gif, opts)).toMatchObject({ ok: false, reason: 'unsupported_type' });
    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(await processImage(svg, opts)).toMatchObject({ ok: false, reason: 'unsupported_type' });
    const tiff = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    expect(await processImage(tiff, opts)).toMatchObject({ ok: false, reason: 'unsupported_type' });
  });

  it('sniffs signatures without trusting anything else', () => {
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ kind: 'accepted', format: 'jpeg' });
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toEqual({ kind: 'accepted', format: 'webp' });
    expect(sniffImageType(Buffer.from('\0\0\0\x18ftypheic\0\0\0\0mif1heic', 'latin1'))).toEqual({ kind: 'accepted', format: 'isobmff' });
    expect(sniffImageType(Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0isommp42', 'latin1'))).toBeNull();
    expect(sniffImageType(Buffer.from('%PDF-1.7'))).toBeNull();
  });
});
