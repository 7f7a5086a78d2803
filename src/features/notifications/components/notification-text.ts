/**
 * A notification's texts in the language the app is showing. The server stores them in the account's language (the
 * one it was created in, as its e-mails are); when the notification carries what they were made of (`data.vars`)
 * and this language has the kind's text, they are said again here, so an account created in Spanish and read in
 * English gets English notices and bell entries. Older notifications, and kinds a language lacks, keep the stored texts.
 */
import type { Notification } from '#contract/notifications.ts';

export interface Translator {
  t: (key: string, options?: Record<string, unknown>) => string;
  /** With the values: a kind whose message has plural forms (`message_one`…) exists for its `count`. */
  exists: (key: string, options?: Record<string, unknown>) => boolean;
}

export interface NotificationText {
  message: string;
  description: string | null;
}

export function notificationText(n: Notification, i18n: Translator | undefined): NotificationText {
  const stored = { message: n.message, description: n.description };
  const vars = n.data.vars;
  const key = `notifications.kinds.${n.kind}`;
  if (!i18n || !vars || !i18n.exists(`${key}.message`, vars)) return stored;
  const description = i18n.exists(`${key}.description`) ? i18n.t(`${key}.description`, vars) : '';
  return { message: i18n.t(`${key}.message`, vars), description: description || null };
}

/** The translator of the app's translations (`useTranslation().i18n`). */
export function translatorOf(i18n: {
  t: (key: string, options?: Record<string, unknown>) => unknown;
  exists: (key: string, options?: Record<string, unknown>) => boolean;
}): Translator {
  return { t: (key, options) => String(i18n.t(key, options)), exists: (key, options) => i18n.exists(key, options) };
}
