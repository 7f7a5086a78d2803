import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { esMessages, renderInSpanish, type Dict } from '#tests/render-es.tsx';
import { sendReport } from '../api/report-ad.ts';
import { ReportAd } from './report-ad.tsx';

vi.mock('../api/report-ad.ts', () => ({ sendReport: vi.fn() }));

const es = esMessages as Dict & {
  model: { report: { open: string } };
  reports: { form: Record<string, string>; reasons: Record<string, string> };
};

const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

afterEach(() => {
  vi.mocked(sendReport).mockReset();
});

describe('ReportAd', () => {
  it('opens a dialog and refuses an empty notice field by field, sending nothing', async () => {
    renderInSpanish(<ReportAd adId={12} />);
    fireEvent.click(screen.getByRole('button', { name: es.model.report.open }));
    const dialog = await screen.findByRole('dialog', { name: es.reports.form.title });
    expect(dialog).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: es.reports.form.submit }));
    await waitFor(() => expect(field(es.reports.form.details!).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByRole('radio', { name: es.reports.reasons.minor_suspected }).getAttribute('aria-invalid')).toBe('true');
    expect(sendReport).not.toHaveBeenCalled();
  });

  it('sends the notice with the time the form was opened and shows the receipt', async () => {
    vi.mocked(sendReport).mockResolvedValue({
      status: 201,
      data: { channel: 'reports', type: 'success', message: 'ok', data: { receipt: 'ABCDE-FGH23' } },
    } as unknown as Awaited<ReturnType<typeof sendReport>>);
    renderInSpanish(<ReportAd adId={12} />);
    fireEvent.click(screen.getByRole('button', { name: es.model.report.open }));
    await screen.findByRole('dialog', { name: es.reports.form.title });
    fireEvent.click(screen.getByRole('radio', { name: es.reports.reasons.minor_suspected }));
    fireEvent.change(field(es.reports.form.details!), { target: { value: 'Parece menor de edad en las fotos.' } });
    fireEvent.change(field(es.reports.form.contact!), { target: { value: 'testigo@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: es.reports.form.submit }));
    expect((await screen.findByTestId('report-receipt')).textContent).toBe('ABCDE-FGH23');
    expect(screen.getByText(es.reports.form.receiptMailed!)).toBeTruthy();
    const body = vi.mocked(sendReport).mock.calls[0]![0];
    expect(body).toMatchObject({ ad_id: 12, reason: 'minor_suspected', contact: 'testigo@example.test' });
    expect(body.details).toBe('Parece menor de edad en las fotos.');
    expect(typeof body.opened_at).toBe('number');
    expect(body).not.toHaveProperty('website');
  });
});
