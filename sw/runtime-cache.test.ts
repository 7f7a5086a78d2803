import { describe, expect, it } from 'vitest';
import { isListingRequest, isMediaRequest, isPublicAnswer, isWarmUpMessage, WARM_UP_MESSAGE, warmUpUrls } from './runtime-cache.ts';

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

  it('hands the worker only the listing answers and photos a first visit fetched, once each', () => {
    const origin = 'https://vitrina.test';
    expect(
      warmUpUrls(
        [
          `${origin}/api/models?page=1`,
          `${origin}/api/models?page=1`,
          `${origin}/api/models/42`,
          `${origin}/media/ads/42/u/800.webp#x`,
          `${origin}/api/user`,
          `${origin}/assets/index-abc.js`,
          'https://elsewhere.test/api/models/1',
          'not a url at all ::',
        ],
        origin,
      ),
    ).toEqual([`${origin}/api/models?page=1`, `${origin}/api/models/42`, `${origin}/media/ads/42/u/800.webp`]);
  });

  it('takes a warm-up message only in its own shape', () => {
    expect(isWarmUpMessage({ type: WARM_UP_MESSAGE, urls: ['/api/models'] })).toBe(true);
    expect(isWarmUpMessage({ type: 'SKIP_WAITING' })).toBe(false);
    expect(isWarmUpMessage({ type: WARM_UP_MESSAGE, urls: [1] })).toBe(false);
    expect(isWarmUpMessage({ type: WARM_UP_MESSAGE, urls: Array.from({ length: 1000 }, () => '/api/models') })).toBe(false);
    expect(isWarmUpMessage(null)).toBe(false);
  });
});
