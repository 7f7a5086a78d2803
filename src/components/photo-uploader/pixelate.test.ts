import { describe, expect, it } from 'vitest';
import { blockSizeFor, pixelateAreas, pixelateRegion, type PixelBuffer } from './pixelate.ts';

/** A buffer whose pixel (x, y) is (x, y, x + y, 255), so every pixel differs from its neighbours. */
function gradient(width: number, height: number): PixelBuffer {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([x, y, x + y, 255], (y * width + x) * 4);
  }
  return { data, width, height };
}
const px = (b: PixelBuffer, x: number, y: number) => [...b.data.subarray((y * b.width + x) * 4, (y * b.width + x) * 4 + 4)];

describe('pixelation', () => {
  it('fills each block with the average colour of its pixels', () => {
    const b = gradient(8, 8);
    pixelateRegion(b, { x: 0, y: 0, w: 4, h: 4 }, 2);
    // Block (0,0)-(1,1): x ∈ {0,1}, y ∈ {0,1} → averages 0.5, 0.5, 1 → rounded 1, 1, 1.
    expect(px(b, 0, 0)).toEqual([1, 1, 1, 255]);
    expect(px(b, 1, 1)).toEqual([1, 1, 1, 255]);
    // Block (2,0)-(3,1): x ∈ {2,3} → 2.5 → 3; y ∈ {0,1} → 1; x + y → 3.
    expect(px(b, 3, 0)).toEqual([3, 1, 3, 255]);
    // Block (2,2)-(3,3): 2.5 → 3, 2.5 → 3, x + y averages 5.
    expect(px(b, 2, 3)).toEqual([3, 3, 5, 255]);
  });

  it('leaves every pixel outside the area untouched', () => {
    const b = gradient(10, 10);
    const before = gradient(10, 10);
    pixelateRegion(b, { x: 2, y: 3, w: 5, h: 4 }, 3);
    for (let y = 0; y < 10; y++) {
      for (let x = 0; x < 10; x++) {
        const inside = x >= 2 && x < 7 && y >= 3 && y < 7;
        if (!inside) expect(px(b, x, y), `${x},${y}`).toEqual(px(before, x, y));
      }
    }
    // Inside, the first block is uniform.
    expect(new Set([px(b, 2, 3), px(b, 4, 5)].map(String)).size).toBe(1);
  });

  it('handles partial blocks at the right and bottom edges of the area', () => {
    const b = gradient(5, 5);
    pixelateRegion(b, { x: 0, y: 0, w: 5, h: 5 }, 4);
    // The last column (x = 4) is a block of width 1: its value is its own x.
    expect(px(b, 4, 0)[0]).toBe(4);
    expect(px(b, 0, 4)[1]).toBe(4);
  });

  it('clips areas that stick out of the buffer, and ignores empty ones', () => {
    const b = gradient(6, 6);
    expect(() => pixelateRegion(b, { x: 4, y: 4, w: 10, h: 10 }, 2)).not.toThrow();
    expect(px(b, 4, 4)).toEqual(px(b, 5, 5));
    const c = gradient(6, 6);
    pixelateRegion(c, { x: 10, y: 10, w: 5, h: 5 }, 2);
    expect(c.data).toEqual(gradient(6, 6).data);
  });

  it('leaves no trace of the original detail inside a block', () => {
    const b = gradient(16, 16);
    pixelateRegion(b, { x: 0, y: 0, w: 16, h: 16 }, blockSizeFor({ w: 16, h: 16 }));
    const distinct = new Set<string>();
    for (let y = 0; y < 16; y++) for (let x = 0; x < 16; x++) distinct.add(String(px(b, x, y)));
    // 8 blocks across → 2 px blocks → 64 colours for 256 pixels.
    expect(distinct.size).toBe(64);
  });

  it('sizes blocks from the longer side of the area, never under 2 px', () => {
    expect(blockSizeFor({ w: 160, h: 200 })).toBe(25);
    expect(blockSizeFor({ w: 4, h: 4 })).toBe(2);
  });

  it('pixelates areas given in photo pixels on a context drawn at another scale', () => {
    const buffer = gradient(50, 40);
    const ctx = {
      getImageData: (x: number, y: number, w: number, h: number) => {
        const data = new Uint8ClampedArray(w * h * 4);
        for (let row = 0; row < h; row++)
          data.set(buffer.data.subarray(((y + row) * 50 + x) * 4, ((y + row) * 50 + x + w) * 4), row * w * 4);
        return { data, width: w, height: h } as ImageData;
      },
      putImageData: (image: ImageData, x: number, y: number) => {
        for (let row = 0; row < image.height; row++)
          buffer.data.set(image.data.subarray(row * image.width * 4, (row + 1) * image.width * 4), ((y + row) * 50 + x) * 4);
      },
    };
    // A 40×40 area at (20, 20) of a 100×80 photo, drawn at half size: pixels (10..29, 10..29) of the buffer.
    pixelateAreas(ctx, [{ x: 20, y: 20, w: 40, h: 40 }], buffer, 0.5);
    expect(px(buffer, 9, 9)).toEqual([9, 9, 18, 255]);
    expect(px(buffer, 30, 30)).toEqual([30, 30, 60, 255]);
    expect(px(buffer, 10, 10)).toEqual(px(buffer, 11, 11));
  });
});
