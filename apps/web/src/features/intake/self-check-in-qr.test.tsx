import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render';
import { SelfCheckInQrButton } from './self-check-in-qr';

const props = {
  patientId: '3f0c8d2e-6a1b-4c5d-8e9f-0a1b2c3d4e5f',
  appointmentId: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d',
  patientName: 'Ana Ortega',
  timeText: '10:30 AM',
};

afterEach(() => {
  vi.restoreAllMocks();
});

async function openDialog() {
  renderAt(<SelfCheckInQrButton {...props} />);
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Show the check-in QR code for Ana Ortega' }));
  const image = await screen.findByTestId('self-checkin-qr-image');
  return { user, image };
}

describe('self check-in QR code', () => {
  it('prints a sheet with the heading, the patient, the code and how to use it, once the code has loaded', async () => {
    const { user, image } = await openDialog();
    expect(screen.getByTestId('self-checkin-qr-url')).toHaveTextContent(
      `/patients/${props.patientId}/appointments/${props.appointmentId}/patient-checkin`,
    );
    const sheetDocument = document.implementation.createHTMLDocument('');
    const print = vi.fn();
    const open = vi.spyOn(window, 'open').mockReturnValue({ document: sheetDocument, print } as unknown as Window);
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(open).toHaveBeenCalledWith('', '_blank', expect.any(String));
    // The sheet is another document (no window of its own), so its text is read directly.
    expect(sheetDocument.querySelector('h1')!.textContent).toBe('Check in for your visit');
    expect(sheetDocument.body.textContent).toContain('Ana Ortega · 10:30 AM');
    const printed = sheetDocument.querySelector('img')!;
    expect(printed.getAttribute('src')).toBe(image.getAttribute('src'));
    expect(printed.getAttribute('alt')).toBe('QR code to check in Ana Ortega');
    expect(print).not.toHaveBeenCalled();
    printed.dispatchEvent(new Event('load'));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('says so when the browser blocks the print window', async () => {
    const { user } = await openDialog();
    vi.spyOn(window, 'open').mockReturnValue(null);
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(
      await screen.findByText('The print window was blocked. Allow pop-ups for Pathwell, or copy the link.'),
    ).toBeInTheDocument();
  });
});
