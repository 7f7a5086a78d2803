/**
 * A listing card (contract ModelCard) from an ad's row: shared by the listing (through the card cache) and the model page.
 */
import type { ModelCard } from '#contract/listings.ts';
import type { Language } from '#contract/languages.ts';
import type { SectionSlug } from '#contract/sections.ts';
import type { Storage } from '../../plugins/storage.ts';
import { toImage } from '../media/images.ts';
import type { ListingRow } from './listings.repository.ts';

const EXCERPT = 160;

export function ageOn(birth: string | Date | null, today = new Date()): number | null {
  if (!birth) return null;
  const d = typeof birth === 'string' ? new Date(`${birth.slice(0, 10)}T00:00:00Z`) : birth;
  let age = today.getUTCFullYear() - d.getUTCFullYear();
  const m = today.getUTCMonth() - d.getUTCMonth();
  if (m < 0 || (m === 0 && today.getUTCDate() < d.getUTCDate())) age--;
  return age;
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXCERPT) return flat;
  const cut = flat.slice(0, EXCERPT - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), EXCERPT * 0.6)).trimEnd()}…`;
}

/** `today` decides the age: a card serialized on one day is not reused the next (card-cache.ts keys it by day). */
export function toCard(storage: Storage, r: ListingRow, lang: Language, today = new Date()): ModelCard {
  return {
    id: r.id,
    user_id: r.user_id,
    name: r.display_name,
    title: r.title,
    excerpt: excerpt(r.description),
    age: ageOn(r.birth_date, today),
    city: { id: r.city_id, name: r.city_name },
    section: {
      id: r.section_id,
      slug: r.section_slug as SectionSlug,
      name: r.section_names[lang] ?? r.section_names.es ?? '',
      color: r.section_color,
    },
    status: r.profile_status as ModelCard['status'],
    verified: r.profile_status === 'active',
    cover:
      r.cover_id && r.cover_uid
        ? toImage(storage, {
            id: r.cover_id,
            adId: r.id,
            uid: r.cover_uid,
            width: r.cover_width ?? 0,
            height: r.cover_height ?? 0,
            variants: r.cover_variants ?? [],
            isCover: true,
          })
        : null,
    published_at: (r.published_at instanceof Date ? r.published_at : new Date(r.published_at)).toISOString(),
  };
}
