import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PerioperativeTemplate } from '@pathwell/contracts/managed-lists';
import type { Role } from '@pathwell/contracts/roles';
import { SessionReactContext } from '../../app/session-context';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { PerioperativeTemplatesPage } from './perioperative-templates';

const templateId = '55555555-5555-4555-8555-555555555555';
const detailId = '66666666-6666-4666-8666-666666666666';
const template: PerioperativeTemplate = {
  id: templateId,
  name: 'Lumbar epidural',
  codes: ['62323', '64483'],
  isActive: true,
  detailCount: 1,
  createdAt: '2026-01-10T12:00:00.000Z',
  updatedAt: '2026-01-10T12:00:00.000Z',
  details: [
    {
      id: detailId,
      templateId,
      dayOffset: -1,
      channel: 'sms',
      subject: null,
      messageEn: 'Your procedure is tomorrow. Do not eat after midnight.',
      messageEs: null,
      createdAt: '2026-01-10T12:00:00.000Z',
      updatedAt: '2026-01-10T12:00:00.000Z',
    },
  ],
};
const base = '/api/perioperativemessagetemplates';

function setup(role: Role = 'Admin') {
  const api = fakeApi([
    { path: base, body: { totalRecords: 1, pageNumber: 0, pageSize: 15, data: [{ ...template, details: undefined }] } },
    { path: `${base}/${templateId}`, body: template },
    { method: 'POST', path: `${base}/${templateId}/details`, status: 201, body: template.details[0] },
    { method: 'DELETE', path: `${base}/${templateId}/details/${detailId}`, status: 204 },
  ]);
  renderAt(
    <SessionReactContext.Provider value={makeSession({ user: { role } })}>
      <PerioperativeTemplatesPage />
    </SessionReactContext.Provider>,
    { path: '/admin/perioperativetemplates' },
  );
  return api;
}

describe('perioperative templates page', () => {
  it('lists templates with their CPT codes and opens their messages', async () => {
    setup();
    const row = await screen.findByTestId('template-row');
    expect(row).toHaveTextContent('Lumbar epidural');
    expect(row).toHaveTextContent('64483');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Messages of Lumbar epidural' }));
    const drawer = await screen.findByRole('dialog', { name: 'Messages of Lumbar epidural' });
    expect(await within(drawer).findByText('1 day before')).toBeInTheDocument();
    expect(within(drawer).getByText(/Do not eat after midnight/)).toBeInTheDocument();
  });

  it('adds an email message only with a subject', async () => {
    const { calls } = setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Messages of Lumbar epidural' }));
    await user.click(await screen.findByTestId('detail-add'));
    const form = await screen.findByRole('dialog', { name: 'Add a message' });
    await user.click(within(form).getByText('Email'));
    await user.clear(within(form).getByLabelText(/^Day/));
    await user.type(within(form).getByLabelText(/^Day/), '-2');
    await user.type(within(form).getByLabelText(/^Message in English/), 'See you in two days.');
    await user.click(within(form).getByTestId('detail-save'));
    expect(await within(form).findByText('This field is required')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);

    await user.type(within(form).getByLabelText(/^Email subject/), 'Your procedure');
    await user.click(within(form).getByTestId('detail-save'));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
        dayOffset: -2,
        channel: 'email',
        subject: 'Your procedure',
        messageEn: 'See you in two days.',
      }),
    );
  });

  it('deletes a message after confirmation', async () => {
    const { calls } = setup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Messages of Lumbar epidural' }));
    await user.click(await screen.findByRole('button', { name: 'Delete the message of 1 day before' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this message?' });
    expect(confirm).toHaveTextContent('This message (text message, 1 day before) will no longer go out.');
    await user.click(within(confirm).getByTestId('confirm-delete'));
    await waitFor(() => expect(calls.some((call) => call.method === 'DELETE' && call.path.endsWith(detailId))).toBe(true));
  });

  it('lets a Doctor read the messages but not change them', async () => {
    setup('Doctor');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Messages of Lumbar epidural' }));
    expect(await screen.findByText('1 day before')).toBeInTheDocument();
    expect(screen.queryByTestId('template-add')).not.toBeInTheDocument();
    expect(screen.queryByTestId('detail-add')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });
});
