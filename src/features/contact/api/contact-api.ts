import type { Answer } from '#contract/answers.ts';
import type { AdminMessageInput, ContactInput } from '#contract/contact.ts';
import { apiRequest } from '#src/lib/api-client.ts';

export const CONTACT_API = { contact: '/api/contact', toAdmin: '/api/contact/sendMessageToAdmin' } as const;

/** POST /api/contact — visitors (honeypot `website`, `opened_at`). */
export const sendContact = (body: ContactInput) => apiRequest<Answer>(CONTACT_API.contact, { method: 'POST', body });

/** POST /api/contact/sendMessageToAdmin — signed-in users; name and address come from the account. */
export const sendToAdmin = (body: AdminMessageInput) => apiRequest<Answer>(CONTACT_API.toAdmin, { method: 'POST', body });
