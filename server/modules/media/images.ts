import type { Image } from '#contract/listings.ts';
import type { Storage } from '../../plugins/storage.ts';

export const mediaKey = (adId: number, uid: string, width: number) => `ads/${adId}/${uid}/${width}.webp`;

export interface MediaRow {
  id: number;
  adId: number;
  uid: string;
  width: number;
  height: number;
  variants: number[];
  isCover: boolean;
}

/** A stored photo as the browser uses it: a default URL (≈800 px) and a srcset of every WebP variant. */
export function toImage(storage: Storage, m: MediaRow): Image {
  const widths = [...m.variants].sort((a, b) => a - b);
  const preferred = widths.find((w) => w >= 800) ?? widths.at(-1) ?? 0;
  return {
    media_id: m.id,
    uid: m.uid,
    url: storage.url(mediaKey(m.adId, m.uid, preferred)),
    srcset: widths.map((w) => `${storage.url(mediaKey(m.adId, m.uid, w))} ${w}w`).join(', '),
    width: m.width,
    height: m.height,
    is_cover: m.isCover,
  };
}
