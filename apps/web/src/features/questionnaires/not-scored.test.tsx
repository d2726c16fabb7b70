import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PatientFormResponses } from '@pathwell/contracts/form-responses';
import { SessionReactContext } from '../../app/session-context';
import { fakeApi, makeSession } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { QuestionnairesPanel } from './questionnaires-panel';

const patientId = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

// Issue #24 §1: an ODI answered on neutral labels showed "ODI 20.0/100 Minimal disability".
describe('a response answered before the clinic loaded the form’s wording', () => {
  it('is listed as not scored, with no score or band', async () => {
    const responses: PatientFormResponses = {
      data: [
        {
          id: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
          patientId,
          appointmentId: null,
          kind: 'instrument',
          formCode: 2,
          customFormId: null,
          formTitle: 'ODI',
          version: 'ODI 2.1a',
          language: 'es',
          headlineScore: null,
          band: null,
          notScored: 'wordingNotLoaded',
          submittedAt: '2025-02-01T15:00:00.000Z',
          criticalFindings: [],
        },
      ],
      series: [],
    };
    fakeApi([
      { path: `/api/patients/${patientId}/formresponses`, body: responses },
      { path: '/api/patient-links', body: [] },
    ]);
    renderAt(
      <SessionReactContext.Provider value={makeSession()}>
        <QuestionnairesPanel patientId={patientId} timeZone="Etc/GMT+5" appointments={[]} />
      </SessionReactContext.Provider>,
    );
    const [row] = await screen.findAllByTestId('form-response');
    expect(row).toHaveTextContent('Not scored — wording not loaded');
    expect(row).not.toHaveTextContent('/ 100');
    expect(row).not.toHaveTextContent('Minimal disability');
  });
});
