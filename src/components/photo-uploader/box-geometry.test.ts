import { describe, expect, it } from 'vitest';
import {
  boxAround,
  boxForKey,
  boxFromDrag,
  clampBox,
  minSide,
  moveBox,
  padFaceBox,
  pixelBox,
  resizeBox,
  scaleBox,
} from './box-geometry.ts';

const photo = { width: 1000, height: 800 };

describe('box geometry', () => {
  it('sets the smallest side at 2% of the shorter side, at least 8 px', () => {
    expect(minSide(photo)).toBe(16);
    expect(minSide({ width: 100, height: 100 })).toBe(8);
    expect(minSide({ width: 5, height: 4 })).toBe(4);
  });

  it('clamps a box into the photo without letting it shrink below the minimum', () => {
    expect(clampBox({ x: -50, y: 790, w: 100, h: 100 }, photo)).toEqual({ x: 0, y: 700, w: 100, h: 100 });
    expect(clampBox({ x: 10, y: 10, w: 2, h: 3000 }, photo)).toEqual({ x: 10, y: 0, w: 16, h: 800 });
  });

  it('moves a box and stops it at the edges, keeping its size', () => {
    const box = { x: 100, y: 100, w: 200, h: 100 };
    expect(moveBox(box, 50, -20, photo)).toEqual({ x: 150, y: 80, w: 200, h: 100 });
    expect(moveBox(box, 5000, 5000, photo)).toEqual({ x: 800, y: 700, w: 200, h: 100 });
    expect(moveBox(box, -5000, -5000, photo)).toEqual({ x: 0, y: 0, w: 200, h: 100 });
  });

  it('resizes from any corner, the opposite corner fixed', () => {
    const box = { x: 100, y: 100, w: 200, h: 100 };
    expect(resizeBox(box, 'se', 50, 20, photo)).toEqual({ x: 100, y: 100, w: 250, h: 120 });
    expect(resizeBox(box, 'nw', -50, -20, photo)).toEqual({ x: 50, y: 80, w: 250, h: 120 });
    expect(resizeBox(box, 'ne', 10, 10, photo)).toEqual({ x: 100, y: 110, w: 210, h: 90 });
    expect(resizeBox(box, 'sw', 10, 10, photo)).toEqual({ x: 110, y: 100, w: 190, h: 110 });
  });

  it('never turns a box inside out or lets a corner leave the photo', () => {
    const box = { x: 100, y: 100, w: 200, h: 100 };
    expect(resizeBox(box, 'se', -1000, -1000, photo)).toEqual({ x: 100, y: 100, w: 16, h: 16 });
    expect(resizeBox(box, 'nw', 1000, 1000, photo)).toEqual({ x: 284, y: 184, w: 16, h: 16 });
    expect(resizeBox(box, 'se', 5000, 5000, photo)).toEqual({ x: 100, y: 100, w: 900, h: 700 });
    expect(resizeBox(box, 'nw', -5000, -5000, photo)).toEqual({ x: 0, y: 0, w: 300, h: 200 });
  });

  it('draws a box from a drag in any direction, clipped to the photo; a short drag is a tap', () => {
    expect(boxFromDrag({ x: 300, y: 200 }, { x: 100, y: 50 }, photo)).toEqual({ x: 100, y: 50, w: 200, h: 150 });
    expect(boxFromDrag({ x: 900, y: 700 }, { x: 1200, y: 900 }, photo)).toEqual({ x: 900, y: 700, w: 100, h: 100 });
    expect(boxFromDrag({ x: 100, y: 100 }, { x: 105, y: 300 }, photo)).toBeUndefined();
  });

  it('adds a square fifth of the shorter side around a tap, kept inside the photo', () => {
    expect(boxAround({ x: 500, y: 400 }, photo)).toEqual({ x: 420, y: 320, w: 160, h: 160 });
    expect(boxAround({ x: 0, y: 800 }, photo)).toEqual({ x: 0, y: 640, w: 160, h: 160 });
  });

  it('pads a face box on every side, more above (hair), within the photo', () => {
    const padded = padFaceBox({ x: 400, y: 300, w: 100, h: 100 }, photo);
    expect(padded).toEqual({ x: 375, y: 260, w: 150, h: 165 });
    const atEdge = padFaceBox({ x: 0, y: 0, w: 100, h: 100 }, photo);
    expect(atEdge).toEqual({ x: 0, y: 0, w: 125, h: 125 });
  });

  it('scales between photo and preview pixels, and rounds outwards to whole pixels', () => {
    expect(scaleBox({ x: 100, y: 50, w: 200, h: 100 }, 0.5)).toEqual({ x: 50, y: 25, w: 100, h: 50 });
    expect(pixelBox({ x: 10.6, y: 20.2, w: 5.1, h: 5.1 }, photo)).toEqual({ x: 10, y: 20, w: 6, h: 6 });
    expect(pixelBox({ x: 995.5, y: -3, w: 10, h: 10 }, photo)).toEqual({ x: 995, y: 0, w: 5, h: 7 });
  });

  it('maps arrow keys to moves, Shift+arrows to resizes, Alt to bigger steps, and ignores other keys', () => {
    const box = { x: 100, y: 100, w: 200, h: 100 };
    expect(boxForKey(box, 'ArrowRight', photo, { resize: false, large: false })).toEqual({ ...box, x: 116 });
    expect(boxForKey(box, 'ArrowUp', photo, { resize: false, large: true })).toEqual({ ...box, y: 20 });
    expect(boxForKey(box, 'ArrowDown', photo, { resize: true, large: false })).toEqual({ ...box, h: 116 });
    expect(boxForKey(box, 'ArrowLeft', photo, { resize: true, large: false })).toEqual({ ...box, w: 184 });
    expect(boxForKey(box, 'Enter', photo, { resize: false, large: false })).toBeUndefined();
  });
});
