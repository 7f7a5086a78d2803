import type { Answer } from '#contract/answers.ts';
import { API } from '#contract/routes.ts';
import type { AdminMessageInput, ContactInput } from '#contract/contact.ts';
import { apiRequest } from '#src/lib/api-client.ts';

/** POST /api/contact — visitors (honeypot `website`, `opened_at`). */
export const sendContact = (body: ContactInput) => apiRequest<Answer>(API.contact, { method: 'POST', body });

/** POST /api/contact/sendMessageToAdmin — signed-in users; name and address come from the account. */
export const sendToAdmin = (body: AdminMessageInput) => apiRequest<Answer>(API.contactToAdmin, { method: 'POST', body });
