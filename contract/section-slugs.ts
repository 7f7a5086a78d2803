/** The six sections (categories) of SPEC §3, by stable slug (zod-free, for the app shell). */
export const SECTION_SLUGS = ['men', 'women', 'gays', 'trans', 'webcam', 'couples'] as const;
export type SectionSlug = (typeof SECTION_SLUGS)[number];
