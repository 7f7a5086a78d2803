/**
 * The app wires the features' first queries to the answers the page came with (server/plugins/first-screen.ts,
 * src/lib/first-screen.ts): here, where both features may be imported.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelsQueryOptions, publicityQueryOptions } from '#src/features/listings/api/get-models.ts';
import { sectionsQueryOptions } from '#src/features/listings/api/get-sections.ts';
import { modelImagesQueryOptions, modelQueryOptions } from '#src/features/models/api/get-model.ts';
import { setApiLanguage } from '#src/lib/api-client.ts';
import { FIRST_SCREEN_ID, resetFirstScreen } from '#src/lib/first-screen.ts';

const HOME = { search: '', city: undefined, section: undefined, page: 1, literal: false };
const LIST = { data: [{ id: 5 }], meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 } };

function pageWith(block: unknown) {
  const el = document.createElement('script');
  el.type = 'application/json';
  el.id = FIRST_SCREEN_ID;
  el.textContent = JSON.stringify(block);
  document.head.append(el);
}

beforeEach(() => {
  resetFirstScreen();
  setApiLanguage('es');
});
afterEach(() => document.getElementById(FIRST_SCREEN_ID)?.remove());

describe('first visit', () => {
  it("the home's and the model page's queries start with them instead of fetching", () => {
    pageWith({
      lng: 'es',
      answers: {
        '/api/models?': LIST,
        '/api/sections': { data: [{ id: 1 }] },
        '/api/fetchAllPublicityAds': { data: [{ id: 2 }] },
        '/api/models/5': { data: { id: 5 } },
        '/api/getImagesByAd/5': { data: [{ media_id: 9 }] },
      },
    });
    const client = new QueryClient();
    const dataOf = (options: object) => client.getQueryCache().build(client, options as never).state.data;
    expect(dataOf(modelsQueryOptions(HOME, 'es'))).toEqual(LIST);
    expect(dataOf(sectionsQueryOptions())).toEqual([{ id: 1 }]);
    expect(dataOf(publicityQueryOptions())).toEqual([{ id: 2 }]);
    expect(dataOf(modelQueryOptions('5', 'es'))).toEqual({ id: 5 });
    expect(dataOf(modelImagesQueryOptions('5'))).toEqual([{ media_id: 9 }]);
    // Another listing (a search) is not the one the page came with.
    expect(dataOf(modelsQueryOptions({ ...HOME, search: 'lucía' }, 'es'))).toBeUndefined();
  });
});
