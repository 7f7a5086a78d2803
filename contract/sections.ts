import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

import { SECTION_SLUGS } from './section-slugs.ts';

export * from './section-slugs.ts';

export const localisedNameSchema = z.object(
  Object.fromEntries(LANGUAGES.map((l) => [l, z.string()])) as Record<(typeof LANGUAGES)[number], z.ZodString>,
);
export type LocalisedName = z.infer<typeof localisedNameSchema>;

export const sectionSchema = z.object({
  id: z.number().int(),
  slug: z.enum(SECTION_SLUGS),
  name: z.string(),
  names: localisedNameSchema,
  color: z.string().regex(/^#[0-9a-f]{6}$/i),
  position: z.number().int(),
});
export type Section = z.infer<typeof sectionSchema>;
export const sectionListSchema = z.object({ data: z.array(sectionSchema) });
