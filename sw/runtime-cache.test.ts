import { describe, expect, it } from 'vitest';
import { isListingRequest, isMediaRequest, isPublicAnswer } from './runtime-cache.ts';

const u = (p: string) => new URL(p, 'https://vitrina.test');

describe('service worker runtime cache', () => {
  it('keeps the listing answers a visitor browses', () => {
    expect(isListingRequest(u('/api/models'))).toBe(true);
    expect(isListingRequest(u('/api/models?search=ana&city=12&page=2'))).toBe(true);
    expect(isListingRequest(u('/api/models/42'))).toBe(true);
    expect(isListingRequest(u('/api/getImagesByAd/42'))).toBe(true);
    expect(isListingRequest(u('/api/fetchAllPublicityAds'))).toBe(true);
    expect(isListingRequest(u('/api/city/7'))).toBe(true);
    expect(isMediaRequest(u('/media/ads/1/uid/800.webp'))).toBe(true);
  });

  it('never keeps user data', () => {
    for (const p of [
      '/api/user',
      '/api/profile',
      '/api/profile/model',
      '/api/models/42/edit',
      '/api/model/dashboard',
      '/api/cities/search?q=ma',
    ]) {
      expect(isListingRequest(u(p))).toBe(false);
    }
    expect(isMediaRequest(u('/api/media/1'))).toBe(false);
  });

  it('stores only public 200 answers', () => {
    const res = (status: number, cacheControl?: string) =>
      new Response('{}', { status, headers: cacheControl ? { 'cache-control': cacheControl } : {} });
    expect(isPublicAnswer(res(200))).toBe(true);
    expect(isPublicAnswer(res(200, 'public, max-age=5'))).toBe(true);
    expect(isPublicAnswer(res(200, 'public, max-age=31536000, immutable'))).toBe(true);
    expect(isPublicAnswer(res(200, 'private, no-store'))).toBe(false);
    expect(isPublicAnswer(res(200, 'no-store'))).toBe(false);
    expect(isPublicAnswer(res(200, 'max-age=0, private'))).toBe(false);
    expect(isPublicAnswer(res(404))).toBe(false);
    expect(isPublicAnswer(res(500))).toBe(false);
  });
});
