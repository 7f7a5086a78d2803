/**
 * Pixelation of an area of a photo: each block of the area becomes the average colour of its pixels. Works on an
 * ImageData-like buffer (canvas `getImageData`), so the same code draws the preview and the file that is sent, and
 * unit tests run it on plain arrays.
 */
import { pixelBox, type Box } from './box-geometry.ts';

export interface PixelBuffer {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * Blocks across the longer side of an area. Eight blocks over a padded face box leaves about six over the face
 * itself: features, skin marks and tattoos are gone, while the photo still reads as a person.
 */
export const BLOCKS_ACROSS = 8;

/** Block side, in pixels of the buffer being drawn, for an area of that size (never under 2 px). */
export function blockSizeFor(box: Pick<Box, 'w' | 'h'>, blocksAcross = BLOCKS_ACROSS): number {
  return Math.max(2, Math.ceil(Math.max(box.w, box.h) / blocksAcross));
}

/**
 * Pixelates `area` of `buffer` in place, blocks aligned to the area's top-left corner (so the preview, drawn at
 * another scale, shows the same grid as the file sent). The area is clipped to the buffer; pixels outside it are
 * never read or written.
 */
export function pixelateRegion(buffer: PixelBuffer, area: Box, block = blockSizeFor(area)): void {
  const { data, width } = buffer;
  const r = pixelBox(area, buffer);
  if (r.w === 0 || r.h === 0) return;
  const size = Math.max(1, Math.floor(block));
  for (let by = r.y; by < r.y + r.h; by += size) {
    const yEnd = Math.min(by + size, r.y + r.h);
    for (let bx = r.x; bx < r.x + r.w; bx += size) {
      const xEnd = Math.min(bx + size, r.x + r.w);
      let red = 0;
      let green = 0;
      let blue = 0;
      let alpha = 0;
      const count = (xEnd - bx) * (yEnd - by);
      for (let y = by; y < yEnd; y++) {
        let i = (y * width + bx) * 4;
        for (let x = bx; x < xEnd; x++, i += 4) {
          red += data[i]!;
          green += data[i + 1]!;
          blue += data[i + 2]!;
          alpha += data[i + 3]!;
        }
      }
      red = Math.round(red / count);
      green = Math.round(green / count);
      blue = Math.round(blue / count);
      alpha = Math.round(alpha / count);
      for (let y = by; y < yEnd; y++) {
        let i = (y * width + bx) * 4;
        for (let x = bx; x < xEnd; x++, i += 4) {
          data[i] = red;
          data[i + 1] = green;
          data[i + 2] = blue;
          data[i + 3] = alpha;
        }
      }
    }
  }
}

/** The drawing calls pixelation needs from a 2D context (a canvas or an OffscreenCanvas). */
export interface PixelContext {
  getImageData(sx: number, sy: number, sw: number, sh: number): ImageData;
  putImageData(data: ImageData, dx: number, dy: number): void;
}

/**
 * Pixelates each area on a context whose drawing is `scale` times the photo (1 for the file sent, less for the
 * preview). Reads and writes only the areas, not the whole photo.
 */
export function pixelateAreas(ctx: PixelContext, areas: readonly Box[], size: { width: number; height: number }, scale = 1): void {
  for (const area of areas) {
    const scaled = { x: area.x * scale, y: area.y * scale, w: area.w * scale, h: area.h * scale };
    const r = pixelBox(scaled, size);
    if (r.w === 0 || r.h === 0) continue;
    const image = ctx.getImageData(r.x, r.y, r.w, r.h);
    pixelateRegion(image, { x: 0, y: 0, w: r.w, h: r.h }, blockSizeFor(scaled));
    ctx.putImageData(image, r.x, r.y);
  }
}
