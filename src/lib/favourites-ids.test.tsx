import { act, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { publishFavouriteIds, useFavouriteCount, useIsFavourite } from './favourites-ids.ts';

const renders: Record<string, number> = {};
function Heart({ id }: { id: number }) {
  renders[id] = (renders[id] ?? 0) + 1;
  return <span data-testid={`heart-${id}`}>{useIsFavourite(id) ? 'saved' : 'not saved'}</span>;
}
function Count() {
  renders.count = (renders.count ?? 0) + 1;
  return <span data-testid="count">{useFavouriteCount()}</span>;
}

describe('favourite ids', () => {
  it('re-renders only the hearts whose answer changed, and the count when it changed', () => {
    const view = render(
      <>
        <Heart id={1} />
        <Heart id={2} />
        <Heart id={3} />
        <Count />
      </>,
    );
    expect(view.getByTestId('heart-1').textContent).toBe('not saved');
    const start = { ...renders };

    // The store's first publication (the device list, loaded): one saved.
    act(() => publishFavouriteIds([2]));
    expect(view.getByTestId('heart-2').textContent).toBe('saved');
    expect(view.getByTestId('count').textContent).toBe('1');
    expect(renders[1]).toBe(start[1]);
    expect(renders[3]).toBe(start[3]);
    expect(renders[2]).toBe(start[2]! + 1);
    expect(renders.count).toBe(start.count! + 1);

    // The same list again (a re-read after an unrelated change): nothing re-renders.
    const after = { ...renders };
    act(() => publishFavouriteIds([2]));
    expect(renders).toEqual(after);

    // Another one saved: that heart and the count only.
    act(() => publishFavouriteIds([2, 3]));
    expect(view.getByTestId('heart-3').textContent).toBe('saved');
    expect(view.getByTestId('count').textContent).toBe('2');
    expect(renders[1]).toBe(after[1]);
    expect(renders[2]).toBe(after[2]);
    expect(renders[3]).toBe(after[3]! + 1);
    act(() => publishFavouriteIds([]));
  });
});
