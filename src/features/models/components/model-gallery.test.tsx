import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Image } from '#contract/listings.ts';
import { esMessages, renderInSpanish, type Dict } from '#tests/render-es.tsx';
import { ModelGallery } from './model-gallery.tsx';

const gallery = (esMessages as Dict & { model: { gallery: Record<string, string> } }).model.gallery;
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]));

const images = [1, 2, 3].map((n): Image => ({
  media_id: n,
  uid: `p${n}`,
  url: `/media/p${n}.webp`,
  srcset: `/media/p${n}.webp 640w`,
  width: 640,
  height: 800,
  is_cover: n === 1,
}));

// jsdom does not scroll.
Element.prototype.scrollTo ??= function scrollTo() {};

describe('ModelGallery full-screen view (issue 24 D)', () => {
  it('opens full screen from a named button, moves with the arrows, and closes with Escape', async () => {
    renderInSpanish(<ModelGallery images={images} name="Lucía" />);
    const open = screen.getByRole('button', { name: gallery.fullScreen! });
    act(() => open.focus());
    fireEvent.click(open);
    const dialog = await screen.findByRole('dialog', { name: fill(gallery.label!, { name: 'Lucía' }) });
    const photo = () => dialog.querySelector('img')!;
    expect(photo().getAttribute('alt')).toBe(fill(gallery.photoAlt!, { n: 1, name: 'Lucía' }));
    expect(screen.getByRole('button', { name: (esMessages.common as Dict).close as string })).toBeTruthy();

    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(photo().getAttribute('alt')).toBe(fill(gallery.photoAlt!, { n: 2, name: 'Lucía' }));
    expect(screen.getByTestId('viewer-counter').textContent).toBe('2 / 3');
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    expect(photo().getAttribute('alt')).toBe(fill(gallery.photoAlt!, { n: 3, name: 'Lucía' }));
    // The strip under the dialog followed the viewer, once per key (not twice through the portal).
    expect(screen.getByTestId('gallery-counter').textContent).toBe('3 / 3');

    // A swipe to the left shows the next photo (wrapping to the first).
    fireEvent.touchStart(photo(), { touches: [{ clientX: 300, clientY: 100 }], changedTouches: [{ clientX: 300, clientY: 100 }] });
    fireEvent.touchEnd(photo(), { touches: [], changedTouches: [{ clientX: 120, clientY: 110 }] });
    expect(photo().getAttribute('alt')).toBe(fill(gallery.photoAlt!, { n: 1, name: 'Lucía' }));

    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The focus going back to the button is checked in a real browser (e2e/new-user-defects-d.spec.ts).
  });
});
