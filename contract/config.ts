import { z } from 'zod';
import { LANGUAGES } from './languages.ts';

/** Public runtime configuration the browser gets from the server (never secrets). */
export const publicConfigSchema = z.object({
  app_name: z.string(),
  languages: z.array(z.enum(LANGUAGES)),
  realtime: z.object({ key: z.string(), host: z.string(), port: z.number(), force_tls: z.boolean() }).nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
