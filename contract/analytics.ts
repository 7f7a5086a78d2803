import { z } from 'zod';
import { idField } from './params.ts';

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

/** The model page's contact buttons: `call` is the phone link, `message` WhatsApp (the product's only message to a model). */
export const CONTACT_TAP_KINDS = ['call', 'message'] as const;
export type ContactTapKind = (typeof CONTACT_TAP_KINDS)[number];

/**
 * A tap on a contact button, counted for the ad's weekly numbers (contract/ad-stats.ts). The browser sends it only
 * once the visitor accepted analytics cookies, and says so: a tap without `consent: 'accepted'` is refused (422), so a
 * client that skipped the check is not counted either. Nothing names the visitor.
 */
export const contactTapSchema = z
  .object({
    ad_id: idField,
    kind: z.enum(CONTACT_TAP_KINDS),
    consent: z.literal('accepted'),
  })
  .strict();
export type ContactTap = z.input<typeof contactTapSchema>;
