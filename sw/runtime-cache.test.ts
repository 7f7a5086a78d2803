import { describe, expect, it } from 'vitest';
import {
  isFaceModelRequest,
  isListingRequest,
  isMapAssetRequest,
  isMapStyleRequest,
  isMapTileRequest,
  isMediaRequest,
  isPublicAnswer,
  isWarmUpMessage,
  MAP_TILE_TYPICAL_BYTES,
  MAP_TILES_BUDGET_BYTES,
  MAP_TILES_MAX_ENTRIES,
  WARM_UP_MESSAGE,
  WARMED_MESSAGE,
  isWarmedMessage,
  warmUpUrls,
} from './runtime-cache.ts';

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

  it("reads the worker's answer (the URLs it kept) only in its own shape", () => {
    expect(isWarmedMessage({ type: WARMED_MESSAGE, urls: ['http://localhost/media/ads/1/u/800.webp'] })).toBe(true);
    expect(isWarmedMessage({ type: WARM_UP_MESSAGE, urls: [] })).toBe(false);
    expect(isWarmedMessage({ type: WARMED_MESSAGE, urls: [null] })).toBe(false);
    expect(isWarmedMessage(undefined)).toBe(false);
  });
});

describe('maps (issue 16)', () => {
  const origin = 'https://vitrina.test';
  const ext = (p: string) => new URL(p);

  it('keeps the embedded base map and the map code fetched on demand', () => {
    expect(isMapAssetRequest(u('/assets/base-map-es-pwvI7QX-yD.json'))).toBe(true);
    expect(isMapAssetRequest(u('/assets/base-map-world-NxVM63IEyJ.json'))).toBe(true);
    expect(isMapAssetRequest(u('/assets/maplibre-gl-BUwiJpK_.js'))).toBe(true);
    expect(isMapAssetRequest(u('/assets/maplibre-gl-qvkd0SPb.css'))).toBe(true);
    expect(isMapAssetRequest(u('/assets/maplibre-gl-worker-CZtFQQIV.mjs'))).toBe(true);
    expect(isMapAssetRequest(u('/assets/leaflet-maplibre-gl-D5oMUcWW.js'))).toBe(true);
    for (const p of ['/assets/app-abc.js', '/api/models/map', '/assets/base-map-es.json.map', '/base-map-es-x.json']) {
      expect(isMapAssetRequest(u(p))).toBe(false);
    }
  });

  it('keeps the configured source’s tiles and glyphs, and never a request to our own origin', () => {
    expect(isMapTileRequest(ext('https://tiles.example.com/12/2010/1500.png'), origin)).toBe(true);
    expect(isMapTileRequest(ext('https://a.tile.example.org/7/63/47@2x.webp'), origin)).toBe(true);
    expect(isMapTileRequest(ext('https://api.example.com/tiles/v3/10/500/380.pbf?key=k'), origin)).toBe(true);
    expect(isMapTileRequest(ext('https://api.example.com/fonts/Open%20Sans%20Regular/0-255.pbf'), origin)).toBe(true);
    expect(isMapTileRequest(ext('https://tiles.example.com/data/v3/4/7/6'), origin)).toBe(true);
    // Ours: the API, photos and the app are never taken by the tile cache.
    expect(isMapTileRequest(u('/media/ads/1/2/800.webp'), origin)).toBe(false);
    expect(isMapTileRequest(u('/api/models/12/2010/1500'), origin)).toBe(false);
    // Not shaped like a tile.
    expect(isMapTileRequest(ext('https://tiles.example.com/style.json'), origin)).toBe(false);
    expect(isMapTileRequest(ext('https://cdn.example.com/lib.js'), origin)).toBe(false);
  });

  it('refreshes the style, its sprites and TileJSON in the background', () => {
    expect(isMapStyleRequest(ext('https://maps.example.com/styles/basic/style.json?key=k'), origin)).toBe(true);
    expect(isMapStyleRequest(ext('https://maps.example.com/styles/basic/sprite@2x.png'), origin)).toBe(true);
    expect(isMapStyleRequest(ext('https://maps.example.com/styles/basic/sprite.json'), origin)).toBe(true);
    expect(isMapStyleRequest(ext('https://maps.example.com/data/v3/tiles.json'), origin)).toBe(true);
    expect(isMapStyleRequest(u('/api/config.json'), origin)).toBe(false);
    expect(isMapStyleRequest(ext('https://maps.example.com/10/5/3.png'), origin)).toBe(false);
  });

  it('caps the tile cache at about 50 MB of typical tiles', () => {
    expect(MAP_TILES_MAX_ENTRIES * MAP_TILE_TYPICAL_BYTES).toBeLessThanOrEqual(MAP_TILES_BUDGET_BYTES);
    expect(MAP_TILES_MAX_ENTRIES).toBeGreaterThanOrEqual(500);
  });
});

describe('the face search files kept for offline use', () => {
  it('matches the photo worker, the face-detector chunk, the .wasm binaries and the weights by their hashed names', () => {
    expect(isFaceModelRequest(u('/assets/photo-worker-Dx9l9Tor.js'))).toBe(true);
    expect(isFaceModelRequest(u('/assets/face-detector-KDa8eqtZ.js'))).toBe(true);
    expect(isFaceModelRequest(u('/assets/tfjs-backend-wasm-simd-BrM3BlWr.wasm'))).toBe(true);
    expect(isFaceModelRequest(u('/assets/tfjs-backend-wasm-BIA8cDLW.wasm'))).toBe(true);
    expect(isFaceModelRequest(u('/assets/tiny_face_detector_model-C4Zmc5xe.bin'))).toBe(true);
  });

  it('leaves everything else alone', () => {
    expect(isFaceModelRequest(u('/assets/prepare-photo-CrVAW1ZO.js'))).toBe(false);
    expect(isFaceModelRequest(u('/assets/app-CrVAW1ZO.js'))).toBe(false);
    expect(isFaceModelRequest(u('/media/photo-worker-1.js'))).toBe(false);
    expect(isFaceModelRequest(u('/assets/photo-worker-Dx9l9Tor.js.map'))).toBe(false);
    expect(isFaceModelRequest(u('/assets/tiny_face_detector_model-C4Zmc5xe.bin?x=1'))).toBe(true);
  });
});
