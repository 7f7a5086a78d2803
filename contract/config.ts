import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

/** A configured map source: a MapLibre vector style, or raster tiles ({z}/{x}/{y}); the style wins when both are set. */
export const mapSourceSchema = z.object({
  style_url: z.string().optional(),
  tiles_url: z.string().optional(),
  attribution: z.string().optional(),
});
export type MapSource = z.infer<typeof mapSourceSchema>;

/** Public runtime configuration the browser gets from the server (never secrets). */
export const publicConfigSchema = z.object({
  app_name: z.string(),
  languages: z.array(z.enum(LANGUAGES)),
  realtime: z.object({ key: z.string(), host: z.string(), port: z.number(), force_tls: z.boolean() }).nullable(),
  /**
   * The production map source (MAP_STYLE_URL, MAP_TILES_URL, MAP_ATTRIBUTION); absent: the embedded base map only,
   * no third-party request (issue 16).
   */
  map: mapSourceSchema.optional(),
  /** Web Push (issue 25): the VAPID public key (base64url) a device subscribes with. */
  push: z.object({ vapid_public_key: z.string() }).optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
