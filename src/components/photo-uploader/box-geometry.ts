/**
 * Geometry of the pixelation areas, in pixels of the prepared photo (the compressed image that will be sent).
 * Pure functions, so the editor's pointer and keyboard handling and the detector's output share one set of rules:
 * a box always lies inside the photo and never gets smaller than `minSide`.
 */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface Size {
  width: number;
  height: number;
}
export interface Point {
  x: number;
  y: number;
}
/** Which corner of a box is being dragged. */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/** The smallest side a box may have: 2% of the photo's shorter side, never under 8 px (a tap must stay grabbable). */
export function minSide(bounds: Size): number {
  return Math.min(Math.max(8, Math.round(Math.min(bounds.width, bounds.height) * 0.02)), bounds.width, bounds.height);
}

const clamp = (value: number, lo: number, hi: number) => Math.min(Math.max(value, lo), hi);

/** The box made to fit: at least `min` on each side, at most the photo, and inside it. */
export function clampBox(box: Box, bounds: Size, min = minSide(bounds)): Box {
  const w = clamp(box.w, Math.min(min, bounds.width), bounds.width);
  const h = clamp(box.h, Math.min(min, bounds.height), bounds.height);
  return { x: clamp(box.x, 0, bounds.width - w), y: clamp(box.y, 0, bounds.height - h), w, h };
}

/** The box moved by (dx, dy), stopped at the photo's edges, its size unchanged. */
export function moveBox(box: Box, dx: number, dy: number, bounds: Size): Box {
  return { ...box, x: clamp(box.x + dx, 0, bounds.width - box.w), y: clamp(box.y + dy, 0, bounds.height - box.h) };
}

/**
 * The box with one corner dragged by (dx, dy): the opposite corner stays where it is, the dragged one stops at the
 * photo's edges and at `min` from the opposite sides (so a box cannot be turned inside out).
 */
export function resizeBox(box: Box, corner: Corner, dx: number, dy: number, bounds: Size, min = minSide(bounds)): Box {
  let left = box.x;
  let top = box.y;
  let right = box.x + box.w;
  let bottom = box.y + box.h;
  if (corner === 'nw' || corner === 'sw') left = clamp(left + dx, 0, right - min);
  else right = clamp(right + dx, left + min, bounds.width);
  if (corner === 'nw' || corner === 'ne') top = clamp(top + dy, 0, bottom - min);
  else bottom = clamp(bottom + dy, top + min, bounds.height);
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/**
 * The box a drag from `a` to `b` draws (either direction), clipped to the photo; undefined when the drag was too
 * short to mean a box (the caller treats it as a tap).
 */
export function boxFromDrag(a: Point, b: Point, bounds: Size, min = minSide(bounds)): Box | undefined {
  const left = clamp(Math.min(a.x, b.x), 0, bounds.width);
  const right = clamp(Math.max(a.x, b.x), 0, bounds.width);
  const top = clamp(Math.min(a.y, b.y), 0, bounds.height);
  const bottom = clamp(Math.max(a.y, b.y), 0, bounds.height);
  if (right - left < min || bottom - top < min) return undefined;
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/** A square box centred on `center` (a tap, or the middle of the photo), a fifth of the shorter side wide. */
export function boxAround(center: Point, bounds: Size): Box {
  const side = Math.max(minSide(bounds), Math.round(Math.min(bounds.width, bounds.height) / 5));
  return clampBox({ x: center.x - side / 2, y: center.y - side / 2, w: side, h: side }, bounds);
}

/**
 * A detector's face box grown to cover what identifies a person besides the inner face: detectors draw tight boxes
 * (brows to chin), so hair, ears and jaw line would stay sharp. Grows `ratio` of the width on each side, more above.
 */
export function padFaceBox(face: Box, bounds: Size, ratio = 0.25): Box {
  const padX = face.w * ratio;
  const padTop = face.h * ratio * 1.6;
  const padBottom = face.h * ratio;
  const left = clamp(face.x - padX, 0, bounds.width);
  const top = clamp(face.y - padTop, 0, bounds.height);
  const right = clamp(face.x + face.w + padX, 0, bounds.width);
  const bottom = clamp(face.y + face.h + padBottom, 0, bounds.height);
  return clampBox({ x: left, y: top, w: right - left, h: bottom - top }, bounds);
}

/** The box in another scale (photo pixels ↔ preview pixels). */
export function scaleBox(box: Box, sx: number, sy = sx): Box {
  return { x: box.x * sx, y: box.y * sy, w: box.w * sx, h: box.h * sy };
}

/** Whole pixels that still cover the box entirely (outwards rounding: a pixelation area never shrinks). */
export function pixelBox(box: Box, bounds: Size): Box {
  const left = clamp(Math.floor(box.x), 0, bounds.width);
  const top = clamp(Math.floor(box.y), 0, bounds.height);
  const right = clamp(Math.ceil(box.x + box.w), 0, bounds.width);
  const bottom = clamp(Math.ceil(box.y + box.h), 0, bounds.height);
  return { x: left, y: top, w: right - left, h: bottom - top };
}

/** One keyboard step: 2% of the photo's shorter side (10% with a modifier), at least one pixel. */
export function keyStep(bounds: Size, large: boolean): number {
  return Math.max(1, Math.round(Math.min(bounds.width, bounds.height) * (large ? 0.1 : 0.02)));
}

/**
 * What an arrow key does to a box: moves it, or with `resize` grows/shrinks it from its bottom-right corner
 * (Right/Down grow, Left/Up shrink). Returns undefined for any other key.
 */
export function boxForKey(box: Box, key: string, bounds: Size, opts: { resize: boolean; large: boolean }): Box | undefined {
  const step = keyStep(bounds, opts.large);
  const deltas: Record<string, [number, number]> = {
    ArrowLeft: [-step, 0],
    ArrowRight: [step, 0],
    ArrowUp: [0, -step],
    ArrowDown: [0, step],
  };
  const delta = deltas[key];
  if (!delta) return undefined;
  return opts.resize ? resizeBox(box, 'se', delta[0], delta[1], bounds) : moveBox(box, delta[0], delta[1], bounds);
}
