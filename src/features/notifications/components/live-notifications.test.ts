import fs from 'node:fs';
import path from 'node:path';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationList } from '#contract/notifications.ts';
import { notificationsQueryOptions, withRead } from '../api/notifications-api.ts';
import { applyLiveNotification, type RefreshKeys } from './live-notifications.tsx';
import { createI18nInstance, type Resources } from '#src/lib/i18n-core.ts';
import { notificationText, translatorOf } from './notification-text.ts';

/** The app showing English, with the real English texts. */
const english = createI18nInstance({
  lng: 'en',
  resources: { en: JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'locales/en.json'), 'utf8')) as Resources },
});

const REFRESH_KEYS: RefreshKeys = {
  session: [['user']],
  model_profile: [['profile', 'model']],
  ads: [['profile', 'model'], ['ad-photos']],
  publicist_profile: [['publicist', 'profile']],
  publicist_models: [['publicist', 'models']],
  statements: [['statements']],
  support_chat: [['support-chat']],
};

const notification = (over: Partial<Notification> = {}): Notification => ({
  id: 7,
  kind: 'ad.approved',
  type: 'success',
  message: 'Anuncio aprobado',
  description: 'Tu anuncio ya se ve en Vitrina.',
  placement: 'top-right',
  read: false,
  read_at: null,
  created_at: '2026-11-24T02:00:00.000Z',
  data: { link: '/model/dashboard', refresh: ['ads', 'model_profile'] },
  ...over,
});

const emptyList = (): NotificationList => ({
  data: [],
  meta: { current_page: 1, last_page: 1, per_page: 20, total: 0, from: null, to: null, unread: 0 },
});

function setup() {
  const queryClient = new QueryClient();
  queryClient.setQueryData(notificationsQueryOptions().queryKey, emptyList());
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const notify = vi.fn();
  return { queryClient, invalidate, notify, deps: { queryClient, notify, refreshKeys: REFRESH_KEYS } };
}

describe('a broadcast notification', () => {
  it('shows as the spec’s notification, top right', () => {
    const { notify, deps } = setup();
    applyLiveNotification(notification(), deps);
    expect(notify).toHaveBeenCalledWith({
      type: 'success',
      message: 'Anuncio aprobado',
      description: 'Tu anuncio ya se ve en Vitrina.',
      placement: 'top-right',
    });
  });

  it('refreshes every query its scopes name, once each, so an open dashboard changes without a reload', () => {
    const { invalidate, deps } = setup();
    applyLiveNotification(notification(), deps);
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toEqual([['profile', 'model'], ['ad-photos']]);
  });

  it('goes first in the bell’s list and counts as unread, once even when it arrives twice', () => {
    const { queryClient, deps } = setup();
    applyLiveNotification(notification(), deps);
    applyLiveNotification(notification(), deps);
    const list = queryClient.getQueryData<NotificationList>(notificationsQueryOptions().queryKey)!;
    expect(list.data.map((n) => n.id)).toEqual([7]);
    expect(list.meta.unread).toBe(1);
    expect(withRead(list, [7]).meta.unread).toBe(0);
  });

  it('is listed read, without a notice, when the screen already shows it', () => {
    const { notify, queryClient, deps } = setup();
    const markRead = vi.fn(() => Promise.resolve());
    applyLiveNotification(notification({ kind: 'support.reply', data: { refresh: ['support_chat'] } }), {
      ...deps,
      quiet: (n) => n.kind === 'support.reply',
      markRead,
    });
    expect(notify).not.toHaveBeenCalled();
    expect(markRead).toHaveBeenCalledWith(7);
    const list = queryClient.getQueryData<NotificationList>(notificationsQueryOptions().queryKey)!;
    expect(list.data[0]!.read).toBe(true);
    expect(list.meta.unread).toBe(0);
  });

  it('ignores a payload that is not a notification', () => {
    const { notify, invalidate, deps } = setup();
    expect(applyLiveNotification({ hello: 'world' }, deps)).toBeNull();
    expect(notify).not.toHaveBeenCalled();
    expect(invalidate).not.toHaveBeenCalled();
  });
});

describe('the language a notification is shown in', () => {
  const spanish = notification({
    kind: 'ad.paused',
    type: 'warning',
    message: 'Tu anuncio «Noel & Co» ha sido pausado',
    description: 'Lee la declaración de motivos; puedes recurrir la decisión.',
    data: { vars: { label: 'Noel & Co' } },
  });

  it('is the app’s, not the account’s: an account created in Spanish, read in English, gets an English notice', () => {
    const { notify, deps } = setup();
    applyLiveNotification(spanish, { ...deps, i18n: translatorOf(english) });
    expect(notify).toHaveBeenCalledWith({
      type: 'warning',
      message: 'Your ad “Noel & Co” has been paused',
      description: english.t('notifications.kinds.ad.paused.description'),
      placement: 'top-right',
    });
    expect(english.t('notifications.kinds.ad.paused.description')).not.toBe(spanish.description);
  });

  it('keeps the stored texts for a notification without its values (stored before) or a kind the language lacks', () => {
    const translator = translatorOf(english);
    const before = notification({ kind: 'ad.paused', message: 'Tu anuncio ha sido pausado', description: null, data: {} });
    expect(notificationText(before, translator)).toEqual({ message: 'Tu anuncio ha sido pausado', description: null });
    const lacking = { ...translator, exists: () => false };
    expect(notificationText(spanish, lacking)).toEqual({ message: spanish.message, description: spanish.description });
    expect(notificationText(spanish, undefined)).toEqual({ message: spanish.message, description: spanish.description });
  });

  it('a chat reply: the heading in the app’s language, the staff member’s words as they wrote them', () => {
    const reply = notification({
      kind: 'support.reply',
      message: 'Nueva respuesta del equipo de soporte',
      description: 'Hola, ¿en qué te ayudo?',
      data: { vars: { excerpt: 'Hola, ¿en qué te ayudo?' } },
    });
    expect(notificationText(reply, translatorOf(english))).toEqual({
      message: 'New reply from support',
      description: 'Hola, ¿en qué te ayudo?',
    });
  });
});
