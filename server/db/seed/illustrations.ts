/**
 * Illustrative demo photos drawn from SVG with sharp: abstract silhouettes on the section's colour, never
 * pictures of real people. Each is encoded to the same WebP variants real uploads get.
 */
import sharp from 'sharp';

export const VARIANT_WIDTHS = [320, 800, 1600] as const;
export const ASPECT = 1.25; // portrait 4:5
/** The screening provider that marks the demo catalogue's shared drawings: photo matching skips them (issue 29). */
export const DEMO_CATALOGUE_PROVIDER = 'demo-catalogue';

function shade(hex: string, factor: number): string {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.max(0, Math.min(255, Math.round(v * factor))));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A small deterministic generator (mulberry32): the same variation always draws the same picture. */
function random(seed: number): () => number {
  let a = (seed * 0x9e3779b1) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A deterministic illustration for (colour, variation). Photo matching (issue 29) compares pictures by their coarse
 * light and dark layout (a 64-bit perceptual hash of a 32 × 32 thumbnail), so drawings that share one layout look
 * like copies of one photo: each variation lays out its own large light and dark panels behind the figure, which is
 * what tells the drawings apart (server/db/seed/illustrations.test.ts checks no two are within the match distance).
 */
export function illustrationSvg(color: string, variation: number): string {
  const w = 800;
  const h = w * ASPECT;
  const rnd = random(variation + 1);
  const head = { cx: Math.round(250 + rnd() * 300), cy: Math.round(300 + rnd() * 200) };
  const bodyW = Math.round(200 + rnd() * 160);
  // A 4 × 5 grid of panels, each light or dark at its own strength: the low frequencies the hash sees.
  const panels = Array.from({ length: 20 }, (_, i) => {
    const x = (i % 4) * (w / 4);
    const y = Math.floor(i / 4) * (h / 5);
    const light = rnd() < 0.5;
    const opacity = (0.15 + rnd() * 0.55).toFixed(2);
    return `<rect x="${x}" y="${y}" width="${w / 4}" height="${h / 5}" fill="${light ? '#fff' : '#000'}" opacity="${opacity}"/>`;
  }).join('');
  const dots = Array.from({ length: 7 }, () => {
    const x = Math.round(rnd() * w);
    const y = Math.round(rnd() * h);
    const r = Math.round(20 + rnd() * 70);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" opacity="${(0.05 + rnd() * 0.1).toFixed(2)}"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="${variation % 2}" y2="1">
      <stop offset="0" stop-color="${shade(color, 1.15)}"/>
      <stop offset="1" stop-color="${shade(color, 0.35)}"/>
    </linearGradient>
    <radialGradient id="l" cx="0.5" cy="0.35" r="0.6"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  <g>${panels}</g>
  ${dots}
  <rect width="${w}" height="${h}" fill="url(#l)"/>
  <g fill="#0b0b0f" opacity="0.55">
    <circle cx="${head.cx}" cy="${head.cy}" r="120"/>
    <path d="M ${head.cx - bodyW} ${h} C ${head.cx - bodyW} ${head.cy + 260}, ${head.cx - 90} ${head.cy + 150}, ${head.cx} ${head.cy + 150} C ${head.cx + 90} ${head.cy + 150}, ${head.cx + bodyW} ${head.cy + 260}, ${head.cx + bodyW} ${h} Z"/>
  </g>
</svg>`;
}

/** One illustration at one width, as the stored WebP. */
export async function renderIllustrationAt(color: string, variation: number, width: number): Promise<Buffer> {
  return sharp(Buffer.from(illustrationSvg(color, variation)), { density: Math.ceil((72 * width) / 800) + 1 })
    .resize(width, Math.round(width * ASPECT))
    .webp({ quality: 78 })
    .toBuffer();
}

/** The WebP variants of one illustration, keyed by width. */
export async function renderIllustration(color: string, variation: number): Promise<Map<number, Buffer>> {
  const out = new Map<number, Buffer>();
  for (const width of VARIANT_WIDTHS) out.set(width, await renderIllustrationAt(color, variation, width));
  return out;
}
