import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { SUPPORT_SCREENSHOT_MAX_BYTES } from '@pathwell/contracts/messaging';
import { i18n } from '../../lib/i18n';
import { fakeApi, type FakeRoute } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { ContactSupport } from './contact-support';

/** The first bytes of a PNG: enough for a file the browser calls image/png. */
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PNG_BASE64 = btoa(String.fromCharCode(...PNG_BYTES));

const png = (name = 'blank-chart.png') => new File([PNG_BYTES], name, { type: 'image/png' });
/** A file that says it has `size` bytes without holding them. */
const sized = (file: File, size: number) => Object.defineProperty(file, 'size', { value: size });

// jsdom has no document.fonts; the message field's autosize listens to it.
beforeAll(() => {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: new EventTarget(), configurable: true });
});

const accepted: FakeRoute = { method: 'POST', path: '/api/support/contact', status: 201, body: { id: 'x', status: 'stored' } };

function renderForm(routes: FakeRoute[] = [accepted]) {
  const api = fakeApi(routes);
  renderAt(<ContactSupport />, { path: '/contactsupport' });
  return api;
}

const fileField = () => screen.getByTestId<HTMLInputElement>('support-screenshot-input');
const sentBodies = (calls: { path: string; body: unknown }[]) =>
  calls.filter((call) => call.path === '/api/support/contact').map((call) => call.body as Record<string, unknown>);

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: /Subject/ }), 'Chart is blank');
  await user.type(screen.getByRole('textbox', { name: /Message/ }), 'The pain chart shows nothing.');
}

describe('contact support', () => {
  it('offers an optional screenshot field for PNG, JPEG and WebP images, reached with the keyboard after the message', async () => {
    const user = userEvent.setup();
    renderForm();
    const field = await screen.findByRole('button', { name: /Screenshot \(optional\)/ });
    expect(fileField()).toHaveAttribute('type', 'file');
    expect(fileField()).toHaveAttribute('accept', 'image/png,image/jpeg,image/webp');
    expect(screen.getByText(/PNG, JPEG or WebP image of up to 2 MB/)).toBeInTheDocument();
    await user.click(screen.getByRole('textbox', { name: /Message/ }));
    await user.tab();
    expect(field).toHaveFocus();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
  });

  it('sends the chosen screenshot as a data URL with its name, and clears the form after the confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = renderForm();
    await fillIn(user);
    await user.upload(fileField(), png());
    expect(await screen.findByTestId('support-screenshot-chosen')).toHaveTextContent('Attached: blank-chart.png (1 KB)');
    expect(screen.getByRole('button', { name: 'Remove the screenshot blank-chart.png' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sentBodies(calls)).toHaveLength(1));
    expect(sentBodies(calls)[0]).toEqual({
      subject: 'Chart is blank',
      message: 'The pain chart shows nothing.',
      screenshot: `data:image/png;base64,${PNG_BASE64}`,
      screenshotName: 'blank-chart.png',
    });
    expect(await screen.findByText('Your message has been recorded; the support team will read it.')).toBeInTheDocument();
    expect(screen.queryByTestId('support-screenshot-chosen')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Subject/ })).toHaveValue('');
  });

  it('Remove takes the screenshot off again, puts the focus back on the field, and the request goes without it', async () => {
    const user = userEvent.setup();
    const { calls } = renderForm();
    await fillIn(user);
    await user.upload(fileField(), png());
    const remove = await screen.findByRole('button', { name: 'Remove the screenshot blank-chart.png' });
    remove.focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByTestId('support-screenshot-chosen')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Screenshot \(optional\)/ })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sentBodies(calls)).toHaveLength(1));
    expect(sentBodies(calls)[0]).toEqual({ subject: 'Chart is blank', message: 'The pain chart shows nothing.' });
  });

  it('refuses an image over 2 MB in the browser with a message that says how large it is', async () => {
    const user = userEvent.setup();
    const { calls } = renderForm();
    await fillIn(user);
    await user.upload(fileField(), sized(png('full-screen.png'), SUPPORT_SCREENSHOT_MAX_BYTES + 1024 * 1024));
    expect(
      await screen.findByText(
        'This image is 3 MB; a screenshot may be at most 2 MB. Crop it or save it as JPEG or WebP, then choose it again.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('support-screenshot-chosen')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sentBodies(calls)).toHaveLength(1));
    expect(sentBodies(calls)[0]).not.toHaveProperty('screenshot');
  });

  it('refuses a file that is not a PNG, JPEG or WebP image', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderForm();
    await user.upload(fileField(), new File(['GIF89a'], 'animation.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Choose a PNG, JPEG or WebP image.')).toBeInTheDocument();
    expect(screen.queryByTestId('support-screenshot-chosen')).not.toBeInTheDocument();
  });

  it("shows the server's refusal of the screenshot under the file field", async () => {
    const user = userEvent.setup();
    renderForm([
      {
        method: 'POST',
        path: '/api/support/contact',
        status: 400,
        body: {
          error: 'Accepted here: PNG, JPEG, WebP',
          code: 'VALIDATION',
          messageKey: 'fileTypesAccepted',
          params: { types: 'PNG, JPEG, WebP' },
          fields: { screenshot: 'fileTypeInvalid' },
        },
      },
    ]);
    await fillIn(user);
    await user.upload(fileField(), png('renamed.png'));
    await screen.findByTestId('support-screenshot-chosen');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('This type of file is not accepted here')).toBeInTheDocument();
  });

  it('reads in Spanish', async () => {
    renderForm();
    await i18n.changeLanguage('es');
    expect(await screen.findByRole('button', { name: /Captura de pantalla \(opcional\)/ })).toBeInTheDocument();
    expect(screen.getByText(/imagen PNG, JPEG o WebP de hasta 2 MB/)).toBeInTheDocument();
  });
});
