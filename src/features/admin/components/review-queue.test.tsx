import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderInSpanish } from '#tests/render-es.tsx';
import { RejectDialog } from './review-queue.tsx';

describe('RejectDialog', () => {
  it('a digit picks the rule and moves the focus to the confirm button at once, so "7" then Enter typed in a row rejects', async () => {
    const onConfirm = vi.fn();
    const onClose = vi.fn();
    renderInSpanish(<RejectDialog names={['Foto 1', 'Foto 2']} opened onClose={onClose} onConfirm={onConfirm} />);
    await screen.findByRole('dialog', { name: 'Rechazar 2 elementos' });
    fireEvent.keyDown(document.body, { key: '7', code: 'Digit7' });
    // Not at the next frame: the Enter that follows goes wherever the focus is now.
    const confirm = screen.getByRole('button', { name: 'Rechazar 2' });
    expect(document.activeElement).toBe(confirm);
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onClose).not.toHaveBeenCalled();
  });
});
