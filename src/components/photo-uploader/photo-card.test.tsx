/**
 * Issue 24 B7: a photo the automated check refused shows the rule, says the decision was automated, and offers a
 * person's review; once asked, it says what happens next. A refusal without the offer (any other reason) shows only
 * its reason, as before.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInSpanish } from '#tests/render-es.tsx';
import { PhotoCard } from './photo-card.tsx';
import type { QueuedPhoto } from './photo-queue.ts';

const refusedItem = (overrides: Partial<QueuedPhoto> = {}): QueuedPhoto => ({
  id: '1',
  file: new File([new Uint8Array(4)], 'fiesta.jpg', { type: 'image/jpeg' }),
  stage: 'refused',
  progress: 100,
  areas: [],
  problem: 'cannot_decode', // no editor in jsdom: the card shows no preview
  refusal: {
    file: 'fiesta.jpg',
    index: 0,
    reason: 'unsuitable',
    message: 'La revisión automática ha rechazado la foto: erotismo (contenido sugerente).',
    review: { token: 't', rule: 'erotica', automated: true, expires_at: '2026-11-29T00:00:00Z' },
  },
  ...overrides,
});

const props = { locked: false, onAreas: vi.fn(), onRemove: vi.fn(), onRetry: vi.fn() };

describe('PhotoCard, refused by the automated check', () => {
  it('names the rule, says it was automated and offers a person’s review', () => {
    const onRequestReview = vi.fn();
    renderInSpanish(<PhotoCard item={refusedItem()} {...props} onRequestReview={onRequestReview} />);
    expect(screen.getByText('La revisión automática ha rechazado la foto: erotismo (contenido sugerente).')).toBeTruthy();
    expect(screen.getByText(/Es una decisión automática/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pedir revisión a una persona' }));
    expect(onRequestReview).toHaveBeenCalledOnce();
  });

  it('once asked, says a person will look and where the answer will be', () => {
    renderInSpanish(<PhotoCard item={refusedItem({ review: { state: 'requested', key: 'k' } })} {...props} onRequestReview={vi.fn()} />);
    expect(screen.getByTestId('photo-review-requested').textContent).toMatch(/una persona del equipo revisará la foto/);
    expect(screen.queryByRole('button', { name: 'Pedir revisión a una persona' })).toBeNull();
  });

  it('a failed request says so and keeps the button', () => {
    renderInSpanish(<PhotoCard item={refusedItem({ review: { state: 'failed', key: 'k' } })} {...props} onRequestReview={vi.fn()} />);
    expect(screen.getByText(/No se ha podido pedir la revisión/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pedir revisión a una persona' })).toBeTruthy();
  });

  it('another refusal shows its reason only', () => {
    const item = refusedItem({ refusal: { file: 'x.gif', index: 0, reason: 'unsupported_type', message: 'Formato no admitido.' } });
    renderInSpanish(<PhotoCard item={item} {...props} onRequestReview={vi.fn()} />);
    expect(screen.getByText('Formato no admitido.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Pedir revisión a una persona' })).toBeNull();
  });
});
