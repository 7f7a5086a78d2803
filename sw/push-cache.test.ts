import { describe, expect, it } from 'vitest';
import { API } from '#contract/routes.ts';
import { isPushPrefetchPath } from './push-cache.ts';

describe('isPushPrefetchPath', () => {
  it('takes the answers a push names (the paths the server builds) and nothing else', () => {
    for (const p of [API.supportConversations, API.supportConversation(5), API.supportMessages(5), API.statement(12)])
      expect(isPushPrefetchPath(p)).toBe(true);
    for (const p of [
      '/api/user',
      '/api/notifications',
      '/api/support/chat/5/read',
      '/api/statements',
      '/api/statements/1/appeal',
      '/media/ads/1/x.webp',
    ])
      expect(isPushPrefetchPath(p)).toBe(false);
  });
});
