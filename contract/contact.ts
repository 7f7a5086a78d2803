import { z } from 'zod';
import { successSchema } from './answers.ts';
import { paginationMetaSchema } from './listings.ts';

/** The contact form (visitors) and the message to the admins (signed-in users), listed for staff. */

export const CONTACT_MESSAGE_MAX = 3000;

export const contactSchema = z
  .object({
    name: z.string().trim().min(2).max(120),
    email: z.email().max(254),
    subject: z.string().trim().min(3).max(160),
    message: z.string().trim().min(10).max(CONTACT_MESSAGE_MAX),
    /** Honeypot (see contract/reports.ts). */
    website: z.string().max(200).optional(),
    opened_at: z.number().int().nonnegative().optional(),
  })
  .strict();
export type ContactInput = z.input<typeof contactSchema>;

/** Signed-in users: the name and address come from the account. */
export const adminMessageSchema = z
  .object({
    subject: z.string().trim().min(3).max(160),
    message: z.string().trim().min(10).max(CONTACT_MESSAGE_MAX),
  })
  .strict();
export type AdminMessageInput = z.input<typeof adminMessageSchema>;

export const CONTACT_STATUSES = ['new', 'read', 'archived'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export const contactQuerySchema = z
  .object({
    status: z.enum([...CONTACT_STATUSES, 'all']).optional(),
    page: z
      .string()
      .regex(/^\d{1,4}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(1000))
      .optional()
      .default(1),
  })
  .strict();
export type ContactFilters = z.output<typeof contactQuerySchema>;

export const contactStatusSchema = z.object({ status: z.enum(['read', 'archived']) }).strict();

export const contactMessageSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['contact', 'admin']),
  user_id: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  language: z.string(),
  status: z.enum(CONTACT_STATUSES),
  created_at: z.string(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;
export const contactListSchema = z.object({ data: z.array(contactMessageSchema), meta: paginationMetaSchema });
export type ContactList = z.infer<typeof contactListSchema>;

/** Both contact forms' answer: a toast whose description says an acknowledgement is on its way (bots get it too). */
export const contactSentSchema = successSchema.extend({ description: z.string() });
