import { describe, expect, it } from 'vitest';
import { padFaceBox } from './box-geometry.ts';
import { facesToAreas, PREVIEW_MAX_SIDE, previewSize } from './photo-worker-protocol.ts';

describe('the preview the photo worker sends', () => {
  it('scales the longer side down to the maximum and keeps the proportions', () => {
    expect(previewSize({ width: 2400, height: 1800 })).toEqual({ width: 1024, height: 768, scale: 1024 / 2400 });
    expect(previewSize({ width: 1800, height: 2400 })).toEqual({ width: 768, height: 1024, scale: 768 / 1800 });
  });

  it('never scales up, and never gives an empty side', () => {
    expect(previewSize({ width: 800, height: 600 })).toEqual({ width: 800, height: 600, scale: 1 });
    expect(previewSize({ width: 10_000, height: 3 })).toMatchObject({ width: PREVIEW_MAX_SIDE, height: 1 });
  });

  it('reports the horizontal scale after rounding, which the editor multiplies by', () => {
    const size = previewSize({ width: 2399, height: 1001 });
    expect(size.width).toBe(1024);
    expect(size.scale).toBe(1024 / 2399);
  });
});

describe('faces found in the preview', () => {
  it('become padded areas in pixels of the photo', () => {
    const photo = { width: 2400, height: 1800 };
    const [area] = facesToAreas([{ x: 100, y: 50, w: 40, h: 60 }], 0.5, photo);
    expect(area).toEqual(padFaceBox({ x: 200, y: 100, w: 80, h: 120 }, photo));
  });

  it('no face, no area', () => {
    expect(facesToAreas([], 0.5, { width: 10, height: 10 })).toEqual([]);
  });
});
