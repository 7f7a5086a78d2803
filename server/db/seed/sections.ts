import type { SectionSlug } from '#contract/sections.ts';

/** The six sections of SPEC §3 in display order, with their colours and names in the four languages. */
export const SECTION_SEED: { slug: SectionSlug; color: string; names: { es: string; en: string; de: string; pt_BR: string } }[] = [
  { slug: 'women', color: '#d6336c', names: { es: 'Mujeres', en: 'Women', de: 'Frauen', pt_BR: 'Mulheres' } },
  { slug: 'men', color: '#1c7ed6', names: { es: 'Hombres', en: 'Men', de: 'Männer', pt_BR: 'Homens' } },
  { slug: 'gays', color: '#7048e8', names: { es: 'Gays', en: 'Gays', de: 'Gays', pt_BR: 'Gays' } },
  {
    slug: 'trans',
    color: '#0ca678',
    names: { es: 'Trans y travestis', en: 'Trans and transvestites', de: 'Trans und Transvestiten', pt_BR: 'Trans e travestis' },
  },
  {
    slug: 'webcam',
    color: '#f08c00',
    names: { es: 'Videollamadas y Webcam', en: 'Video calls and webcam', de: 'Videoanrufe und Webcam', pt_BR: 'Videochamadas e webcam' },
  },
  { slug: 'couples', color: '#e8590c', names: { es: 'Parejas', en: 'Couples', de: 'Paare', pt_BR: 'Casais' } },
];
