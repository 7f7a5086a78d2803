/**
 * What the uploader takes before it spends any work on a file: photos of the types the server accepts, not too big
 * to open on a phone, not picked twice, and no more than the ad may still hold. The server checks again from the
 * bytes; these checks only spare the user a wait for a certain refusal.
 */
import { ACCEPTED_IMAGE_TYPES, AD_MAX_PHOTOS } from '#contract/media.ts';

/**
 * Largest file we try to open. The photo is compressed here before it is sent, so this is not the server's limit:
 * it keeps a phone from decoding something that would exhaust its memory (a 50 MB JPEG is far beyond any camera).
 */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;

const EXTENSIONS: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

/**
 * For the picker's `accept`: the MIME types and extensions (some systems give files no type). HEIC is left out on
 * purpose, as in the contract: iOS then hands over its photos as JPEG.
 */
export const ACCEPT_ATTRIBUTE = [...ACCEPTED_IMAGE_TYPES, ...Object.keys(EXTENSIONS).map((e) => `.${e}`)].join(',');

export type FileProblem = 'unsupported_type' | 'too_large' | 'too_many_files' | 'duplicate';

export interface FileLike {
  name: string;
  type: string;
  size: number;
  lastModified: number;
}

/** The file's image type from its MIME type, or from its extension when the browser gave none; undefined if neither fits. */
export function imageTypeOf(file: Pick<FileLike, 'name' | 'type'>): string | undefined {
  const type = file.type.toLowerCase();
  if ((ACCEPTED_IMAGE_TYPES as readonly string[]).includes(type)) return type;
  if (type && type !== 'application/octet-stream') return undefined;
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  return EXTENSIONS[ext];
}

/** Same file picked again: same name, size and modification time. */
export const fileKey = (file: FileLike) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`;

export interface CheckedFiles<F extends FileLike> {
  accepted: F[];
  rejected: { file: F; problem: FileProblem }[];
}

/**
 * Splits newly picked files into those worth preparing and those refused, with why. `taken` is how many photos the
 * ad already has plus those already queued; `known` the keys of the files already queued.
 */
export function checkFiles<F extends FileLike>(
  files: readonly F[],
  opts: { taken: number; known?: ReadonlySet<string>; max?: number },
): CheckedFiles<F> {
  const max = opts.max ?? AD_MAX_PHOTOS;
  const seen = new Set(opts.known);
  const out: CheckedFiles<F> = { accepted: [], rejected: [] };
  let room = Math.max(0, max - opts.taken);
  for (const file of files) {
    const key = fileKey(file);
    let problem: FileProblem | undefined;
    if (seen.has(key)) problem = 'duplicate';
    else if (!imageTypeOf(file)) problem = 'unsupported_type';
    else if (file.size > MAX_INPUT_BYTES) problem = 'too_large';
    else if (room === 0) problem = 'too_many_files';
    if (problem) {
      out.rejected.push({ file, problem });
      continue;
    }
    seen.add(key);
    room--;
    out.accepted.push(file);
  }
  return out;
}

/** "IMG_0042.HEIC" → "IMG_0042.jpg": the name the prepared JPEG is sent under. */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '').trim() || 'photo';
  return `${base}.jpg`;
}
