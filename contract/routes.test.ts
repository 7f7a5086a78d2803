/** The path table: one builder gives a route's registration, the client's URL and the outbox's placeholder path. */
import { describe, expect, it } from 'vitest';
import { API, pathMatcher, seg } from './routes.ts';

describe('the path table', () => {
  it('keeps a Fastify pattern, so one builder gives the registration and the URL', () => {
    expect(API.statement(':id')).toBe('/api/statements/:id');
    expect(API.publicistModelActivate(':id', ':value')).toBe('/api/publicist/model/activate/:id/:value');
  });

  it("keeps the outbox's placeholder for the replay to fill in (an encoded one was never replaced)", () => {
    expect(seg('{after}')).toBe('{after}');
    expect(API.changeCover('{after}')).toBe('/api/change-cover-picture/{after}');
    expect(API.supportMessages('{after}')).toBe('/api/support/chat/{after}/messages');
  });

  it('encodes any other value', () => {
    expect(API.consentRequest('a/b?c')).toBe('/api/consent/a%2Fb%3Fc');
    expect(API.model(' 12')).toBe('/api/models/%2012');
    expect(API.publicistModelActivate(3, true)).toBe('/api/publicist/model/activate/3/1');
    expect(API.modelAdActivate(3, false)).toBe('/api/profile/model/activate/3/0');
  });

  it('matches a path built from a pattern, digits only for :id', () => {
    const re = pathMatcher(API.supportMessages(':id'));
    expect(re.test('/api/support/chat/12/messages')).toBe(true);
    expect(re.test('/api/support/chat/x/messages')).toBe(false);
    expect(re.test('/api/support/chat/12/messages/1')).toBe(false);
  });
});
