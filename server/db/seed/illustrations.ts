/**
 * Illustrative demo photos drawn from SVG with sharp: abstract silhouettes on the section's colour, never
 * pictures of real people. Each is encoded to the same WebP variants real uploads get.
 */
import sharp from 'sharp';

export const VARIANT_WIDTHS = [320, 800, 1600] as const;
export const ASPECT = 1.25; // portrait 4:5

function shade(hex: string, factor: number): string {
  const n = parseInt(hex.slice(1), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.max(0, Math.min(255, Math.round(v * factor))));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** A deterministic illustration for (colour, variation). */
export function illustrationSvg(color: string, variation: number): string {
  const w = 800;
  const h = w * ASPECT;
  const hue = variation % 5;
  const head = { cx: 400 + ((variation * 37) % 90) - 45, cy: 390 + ((variation * 53) % 60) };
  const bodyW = 250 + ((variation * 29) % 90);
  const dots = Array.from({ length: 7 }, (_, i) => {
    const x = (i * 131 + variation * 71) % w;
    const y = (i * 197 + variation * 43) % h;
    const r = 20 + ((i * 17 + variation * 11) % 70);
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="#fff" opacity="${0.05 + (i % 3) * 0.04}"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="${hue % 2}" y2="1">
      <stop offset="0" stop-color="${shade(color, 1.15)}"/>
      <stop offset="1" stop-color="${shade(color, 0.35)}"/>
    </linearGradient>
    <radialGradient id="l" cx="0.5" cy="0.35" r="0.6"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="${w}" height="${h}" fill="url(#g)"/>
  ${dots}
  <rect width="${w}" height="${h}" fill="url(#l)"/>
  <g fill="#0b0b0f" opacity="0.55">
    <circle cx="${head.cx}" cy="${head.cy}" r="120"/>
    <path d="M ${head.cx - bodyW} ${h} C ${head.cx - bodyW} ${head.cy + 260}, ${head.cx - 90} ${head.cy + 150}, ${head.cx} ${head.cy + 150} C ${head.cx + 90} ${head.cy + 150}, ${head.cx + bodyW} ${head.cy + 260}, ${head.cx + bodyW} ${h} Z"/>
  </g>
</svg>`;
}

/** The WebP variants of one illustration, keyed by width. */
export async function renderIllustration(color: string, variation: number): Promise<Map<number, Buffer>> {
  const svg = Buffer.from(illustrationSvg(color, variation));
  const out = new Map<number, Buffer>();
  for (const width of VARIANT_WIDTHS) {
    out.set(
      width,
      await sharp(svg, { density: Math.ceil((72 * width) / 800) + 1 })
        .resize(width, Math.round(width * ASPECT))
        .webp({ quality: 78 })
        .toBuffer(),
    );
  }
  return out;
}
