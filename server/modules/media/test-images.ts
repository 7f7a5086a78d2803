/**
 * Tests only: real image files made on the spot with sharp (and one hand-built PNG header), so the pipeline is
 * tested on bytes, not on mocks.
 */
import zlib from 'node:zlib';
import sharp from 'sharp';

/** Noisy pixels: JPEG cannot compress them away, so a truncation cuts through real scan data. */
export function noisyRaw(width: number, height: number, seed = 1): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  let s = seed;
  for (let i = 0; i < raw.length; i++) {
    s = (s * 1_103_515_245 + 12_345) & 0x7fffffff;
    const x = (i / 3) % width;
    raw[i] = ((x * 255) / width + (s & 63)) & 0xff;
  }
  return raw;
}

export async function jpeg(width = 1200, height = 900, seed = 1): Promise<Buffer> {
  return sharp(noisyRaw(width, height, seed), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function png(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 30, g: 120, b: 200, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** Strings planted in the metadata of jpegWithGps(): none of them may survive the pipeline. */
export const PLANTED = { artist: 'Planted Artist Name', datum: 'PLANTED-DATUM', xmp: 'planted-xmp-secret' } as const;

/**
 * A JPEG from a "phone": EXIF with GPS position (43°21'37"N 5°50'42"W), an artist name, orientation 6 (the camera was
 * turned: the stored pixels are 400 wide × 300 high, the photo is upright 300 × 400), and an XMP packet.
 */
export async function jpegWithGps(): Promise<Buffer> {
  const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${PLANTED.xmp}</dc:title></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
  return sharp(noisyRaw(400, 300), { raw: { width: 400, height: 300, channels: 3 } })
    .withExif({
      IFD0: { Artist: PLANTED.artist, Make: 'PhoneMaker' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '43/1 21/1 37/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '5/1 50/1 42/1',
        GPSMapDatum: PLANTED.datum,
      },
    })
    .withXmp(xmp)
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/**
 * A valid-looking PNG that declares width × height pixels (30,000 × 30,000 = 900 MP by default) but carries only a
 * few bytes of image data: a pixel-flood attempt that costs nothing to make.
 */
export function pixelFloodPng(width = 30_000, height = 30_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const textFile = () => Buffer.from('Esto no es una foto.\nSolo texto con extensión .jpg\n', 'utf8');
