import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ProcedureNote, ProcedureNoteSummary } from '@pathwell/contracts/procedure-notes';
import { fakeApi, ids } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { ProcedureNoteEditor } from './procedure-note-editor';
import { ProcedureNotesCard, ProcedureNotesTodo } from './procedure-notes-card';

const patientId = '77777777-7777-4777-8777-777777777771';
const interventionId = '88888888-8888-4888-8888-888888888881';
const noteId = '99999999-9999-4999-8999-999999999991';
const v2Id = '99999999-9999-4999-8999-999999999992';

const summary = (overrides: Partial<ProcedureNoteSummary> = {}): ProcedureNoteSummary => ({
  id: noteId,
  interventionId,
  patientId,
  patientName: 'Ana Quintero',
  kind: 'injection',
  procedure: 'Lumbar epidural steroid injection',
  performedOn: '2026-11-20',
  version: 1,
  status: 'draft',
  providerId: ids.doctor,
  providerName: 'Daniela Ortiz',
  signedAt: null,
  updatedAt: '2026-11-20T15:00:00.000Z',
  ...overrides,
});

const note = (overrides: Partial<ProcedureNote> = {}): ProcedureNote => ({
  ...summary(),
  signedByName: null,
  templateId: null,
  templateName: 'Injection note',
  body: 'Injection for Ana Quintero on 11/20/2026',
  createdAt: '2026-11-20T15:00:00.000Z',
  canSign: true,
  versions: [
    { id: noteId, version: 1, status: 'draft', signedAt: null, signedByName: null, updatedAt: '2026-11-20T15:00:00.000Z' },
  ],
  ...overrides,
});

const signedNote = note({
  status: 'signed',
  canSign: false,
  signedAt: '2026-11-20T18:00:00.000Z',
  signedByName: 'Daniela Ortiz',
  versions: [
    {
      id: noteId,
      version: 1,
      status: 'signed',
      signedAt: '2026-11-20T18:00:00.000Z',
      signedByName: 'Daniela Ortiz',
      updatedAt: '2026-11-20T18:00:00.000Z',
    },
  ],
});

function renderEditor() {
  return renderAt(<ProcedureNoteEditor interventionId={interventionId} patientId={patientId} timeZone="Etc/GMT+5" />);
}

describe('procedure notes card on the patient dashboard', () => {
  it('lists each note with its status and a link to its page', async () => {
    fakeApi([
      {
        path: `/api/patients/${patientId}/procedurenotes`,
        body: {
          enabled: true,
          data: [
            summary(),
            summary({
              id: v2Id,
              interventionId: '88888888-8888-4888-8888-888888888882',
              status: 'signed',
              version: 2,
              procedure: null,
              kind: 'pump',
            }),
          ],
        },
      },
    ]);
    renderAt(<ProcedureNotesCard patientId={patientId} />);
    const rows = await screen.findAllByTestId('procedure-note-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Draft')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Pain pump visit');
    expect(rows[1]).toHaveTextContent('Signed');
    const link = within(rows[0]!).getByRole('link', { name: 'Open the note of Lumbar epidural steroid injection on 11/20/2026' });
    expect(link).toHaveAttribute('href', `/patients/procedurenoteform/${interventionId}/${patientId}/${ids.doctor}/injection`);
  });

  it('says when there are none, and stays hidden when the clinic does not use procedure notes', async () => {
    fakeApi([{ path: `/api/patients/${patientId}/procedurenotes`, body: { enabled: true, data: [] } }]);
    const first = renderAt(<ProcedureNotesCard patientId={patientId} />);
    expect(await screen.findByText('No procedure notes yet')).toBeInTheDocument();
    first.unmount();
    fakeApi([{ path: `/api/patients/${patientId}/procedurenotes`, body: { enabled: false, data: [] } }]);
    renderAt(<ProcedureNotesCard patientId={patientId} />);
    await waitFor(() => expect(screen.queryByTestId('procedure-notes-card')).not.toBeInTheDocument());
  });

  it('shows an error when the list fails', async () => {
    fakeApi([
      {
        path: `/api/patients/${patientId}/procedurenotes`,
        status: 500,
        body: { error: 'x', code: 'INTERNAL', messageKey: 'internalError' },
      },
    ]);
    renderAt(<ProcedureNotesCard patientId={patientId} />);
    expect(await screen.findByText('Procedure notes could not be loaded')).toBeInTheDocument();
  });
});

describe('procedure notes to sign', () => {
  it('lists unsigned drafts with patient and provider', async () => {
    fakeApi([{ path: '/api/procedurenotes/todo', body: { enabled: true, data: [summary()] } }]);
    renderAt(<ProcedureNotesTodo />);
    const row = await screen.findByTestId('procedure-note-todo-row');
    expect(row).toHaveTextContent('Ana Quintero · 11/20/2026 · Daniela Ortiz');
    expect(screen.getByRole('heading', { name: 'Procedure notes to sign (1)' })).toBeInTheDocument();
  });

  it('says when nothing waits', async () => {
    fakeApi([{ path: '/api/procedurenotes/todo', body: { enabled: true, data: [] } }]);
    renderAt(<ProcedureNotesTodo />);
    expect(await screen.findByText('No unsigned procedure notes')).toBeInTheDocument();
  });
});

describe('procedure note page', () => {
  it('opens the draft, saves edits, and signs after confirming', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/procedurenotes', status: 201, body: note() },
      { method: 'PUT', path: `/api/procedurenotes/${noteId}`, body: note({ body: 'Edited' }) },
      { method: 'POST', path: `/api/procedurenotes/${noteId}/sign`, body: { ...signedNote, body: 'Edited' } },
    ]);
    renderEditor();
    const body = await screen.findByTestId('procedure-note-body');
    expect(body).toHaveValue('Injection for Ana Quintero on 11/20/2026');
    expect(screen.getByTestId('procedure-note-template')).toHaveTextContent('Filled from the template “Injection note”.');
    expect(calls[0]!.body).toEqual({ interventionId });
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.clear(body);
    await user.type(body, 'Edited');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(save);
    await waitFor(() => expect(calls.some((call) => call.method === 'PUT')).toBe(true));
    expect(calls.find((call) => call.method === 'PUT')!.body).toEqual({ body: 'Edited' });

    await user.click(screen.getByRole('button', { name: 'Sign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign this note?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign' }));
    expect(await screen.findByTestId('procedure-note-signed-body')).toHaveTextContent('Edited');
    expect(screen.getByText(/Electronically signed by Daniela Ortiz on 11\/20\/2026/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Amend' })).toBeInTheDocument();
  });

  it('names the parts still to be completed, and shows the server refusing to sign them (issue #24)', async () => {
    const unfinished = 'Indication:\n[to be completed by the provider]\n\nDescription:\n[to be completed by the provider]';
    fakeApi([
      { method: 'POST', path: '/api/procedurenotes', status: 201, body: note({ body: unfinished }) },
      {
        method: 'POST',
        path: `/api/procedurenotes/${noteId}/sign`,
        status: 400,
        body: {
          error: 'Complete the note before signing it; still to be written: Indication, Description',
          code: 'VALIDATION',
          messageKey: 'procedureNoteUnfilled',
          params: { names: 'Indication, Description' },
          fields: { body: 'placeholdersUnfilled' },
        },
      },
    ]);
    renderEditor();
    expect(await screen.findByTestId('procedure-note-unfilled')).toHaveTextContent(
      'Still to be completed before signing: Indication, Description',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign this note?' });
    await user.click(within(dialog).getByRole('button', { name: 'Sign' }));
    expect(
      await screen.findByText('Complete the note before signing it; still to be written: Indication, Description'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('procedure-note-body')).toHaveAttribute('aria-invalid', 'true');

    const body = screen.getByTestId('procedure-note-body');
    await user.clear(body);
    await user.type(body, 'Indication: lumbar radicular pain');
    expect(screen.queryByTestId('procedure-note-unfilled')).not.toBeInTheDocument();
  });

  it('is read-only once signed, amends into a new draft version, and lists the versions', async () => {
    const amended = note({
      id: v2Id,
      version: 2,
      versions: [
        { id: v2Id, version: 2, status: 'draft', signedAt: null, signedByName: null, updatedAt: '2026-11-21T15:00:00.000Z' },
        signedNote.versions[0]!,
      ],
    });
    fakeApi([
      { method: 'POST', path: '/api/procedurenotes', body: signedNote },
      { method: 'POST', path: `/api/procedurenotes/${noteId}/amend`, status: 201, body: amended },
    ]);
    renderEditor();
    await screen.findByTestId('procedure-note-signed-body');
    expect(screen.queryByTestId('procedure-note-body')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Amend' }));
    expect(await screen.findByTestId('procedure-note-body')).toBeInTheDocument();
    const versions = screen.getByTestId('procedure-note-versions');
    expect(within(versions).getByRole('button', { name: /^Version 2.*Draft/ })).toHaveAttribute('aria-current', 'true');
    expect(within(versions).getByRole('button', { name: /^Version 1.*Signed/ })).toBeInTheDocument();
  });

  it('tells a user who is not the provider that they cannot sign, and says when the default layout was used', async () => {
    fakeApi([{ method: 'POST', path: '/api/procedurenotes', body: note({ canSign: false, templateName: null }) }]);
    renderEditor();
    expect(await screen.findByTestId('procedure-note-cannot-sign')).toHaveTextContent(
      'Only the provider named on the note can sign it.',
    );
    expect(screen.queryByRole('button', { name: 'Sign' })).not.toBeInTheDocument();
    expect(screen.getByTestId('procedure-note-template')).toHaveTextContent('built-in default layout');
  });

  it('explains when the clinic does not use procedure notes', async () => {
    fakeApi([
      {
        method: 'POST',
        path: '/api/procedurenotes',
        status: 403,
        body: { error: 'x', code: 'FORBIDDEN', messageKey: 'featureOff' },
      },
    ]);
    renderEditor();
    expect(await screen.findByTestId('procedure-note-error')).toHaveTextContent('This clinic does not use procedure notes');
  });
});
