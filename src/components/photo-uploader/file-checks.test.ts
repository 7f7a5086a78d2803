import { describe, expect, it } from 'vitest';
import { ACCEPT_ATTRIBUTE, checkFiles, fileKey, imageTypeOf, jpegName, MAX_INPUT_BYTES } from './file-checks.ts';

const file = (name: string, type: string, size = 1000, lastModified = 1) => ({ name, type, size, lastModified });

describe('file checks', () => {
  it('takes JPEG, PNG, WebP and AVIF by type, or by extension when the type is missing', () => {
    expect(imageTypeOf(file('a.jpg', 'image/jpeg'))).toBe('image/jpeg');
    expect(imageTypeOf(file('a.PNG', ''))).toBe('image/png');
    expect(imageTypeOf(file('a.avif', 'application/octet-stream'))).toBe('image/avif');
    expect(imageTypeOf(file('a.gif', 'image/gif'))).toBeUndefined();
    expect(imageTypeOf(file('a.svg', 'image/svg+xml'))).toBeUndefined();
    // A stated type wins over the name: a PDF called .jpg is not a photo.
    expect(imageTypeOf(file('a.jpg', 'application/pdf'))).toBeUndefined();
    // HEIC is refused like the server does; iOS converts to JPEG when the picker does not ask for HEIC.
    expect(imageTypeOf(file('a.heic', 'image/heic'))).toBeUndefined();
    expect(ACCEPT_ATTRIBUTE).not.toMatch(/heic/);
  });

  it('refuses other types, oversized files, files picked twice and files past the ad limit, with why', () => {
    const a = file('a.jpg', 'image/jpeg');
    const result = checkFiles(
      [
        a,
        file('b.gif', 'image/gif'),
        file('c.jpg', 'image/jpeg', MAX_INPUT_BYTES + 1),
        { ...a },
        file('d.jpg', 'image/jpeg', 10, 2),
        file('e.jpg', 'image/jpeg', 10, 3),
      ],
      { taken: 28, max: 30 },
    );
    expect(result.accepted.map((f) => f.name)).toEqual(['a.jpg', 'd.jpg']);
    expect(result.rejected.map((r) => [r.file.name, r.problem])).toEqual([
      ['b.gif', 'unsupported_type'],
      ['c.jpg', 'too_large'],
      ['a.jpg', 'duplicate'],
      ['e.jpg', 'too_many_files'],
    ]);
  });

  it('knows the files already queued', () => {
    const a = file('a.jpg', 'image/jpeg');
    const result = checkFiles([a], { taken: 1, known: new Set([fileKey(a)]) });
    expect(result.rejected).toEqual([{ file: a, problem: 'duplicate' }]);
  });

  it('names the JPEG that is sent after the original', () => {
    expect(jpegName('IMG_0042.PNG')).toBe('IMG_0042.jpg');
    expect(jpegName('holiday.photo.webp')).toBe('holiday.photo.jpg');
    expect(jpegName('.jpg')).toBe('photo.jpg');
    expect(jpegName('noext')).toBe('noext.jpg');
  });
});
