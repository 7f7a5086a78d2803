import { z } from 'zod';

/** A first-party page view, only sent after cookie consent. Paths only: never query strings (they may hold searches). */
export const pageViewSchema = z.object({
  path: z
    .string()
    .min(1)
    .max(512)
    .regex(/^\/[^?#\s]*$/),
  referrer: z.string().max(512).optional(),
});
export type PageView = z.infer<typeof pageViewSchema>;
