import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FormQuestion, RenderableForm } from '@pathwell/contracts/forms';
import { linkStorage } from './storage';
import { fakePatientApi, renderPatient, sampleForm, TOKEN } from './test-helpers';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function formWith(questions: FormQuestion[]): RenderableForm {
  return { ...sampleForm, questions };
}

function startAt(questions: FormQuestion[], extra: Parameters<typeof fakePatientApi>[0] = {}) {
  linkStorage.setAccessToken(TOKEN, 'access-1');
  const api = fakePatientApi({ form: formWith(questions), ...extra });
  renderPatient();
  return api;
}

const contextStub = {
  scale: vi.fn(),
  beginPath: vi.fn(),
  arc: vi.fn(),
  fill: vi.fn(),
  moveTo: vi.fn(),
  lineTo: vi.fn(),
  stroke: vi.fn(),
  clearRect: vi.fn(),
  fillText: vi.fn(),
  drawImage: vi.fn(),
};

beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => contextStub as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue(PNG);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('question types', () => {
  it('signature pad turns a drawn stroke into a PNG answer with the time signed, and Clear removes it', async () => {
    const api = startAt([{ id: 'sign', type: 18, text: { en: 'Please sign', es: 'Firme' }, required: true }]);
    const canvas = await screen.findByRole('img', { name: 'Signature box' });
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This field is required');

    fireEvent.pointerDown(canvas, { pointerId: 1, clientX: 10, clientY: 10 });
    fireEvent.pointerMove(canvas, { pointerId: 1, clientX: 60, clientY: 40 });
    fireEvent.pointerUp(canvas, { pointerId: 1, clientX: 60, clientY: 40 });
    expect(contextStub.lineTo).toHaveBeenCalled();
    expect(await screen.findByText(/^Signed on/)).toBeInTheDocument();
    expect(linkStorage.draft(TOKEN)?.answers.sign).toEqual({
      image: PNG,
      signedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(linkStorage.draft(TOKEN)?.answers.sign).toBeNull();

    fireEvent.pointerDown(canvas, { pointerId: 2, clientX: 5, clientY: 5 });
    fireEvent.pointerUp(canvas, { pointerId: 2, clientX: 5, clientY: 5 });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Review your answers' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Your signature' })).toHaveAttribute('src', PNG);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByTestId('thanks');
    const sent = api.callsTo('/submit')[0]?.body as { answers: { sign: { image: string; signedAt: string } } };
    expect(sent.answers.sign.image).toBe(PNG);
  });

  it('signature pad accepts a typed name from the keyboard', async () => {
    startAt([{ id: 'sign', type: 18, text: { en: 'Please sign', es: 'Firme' }, required: true }]);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Or type your full name to sign'), 'Maria Lopez{Enter}');
    expect(contextStub.fillText).toHaveBeenCalledWith('Maria Lopez', expect.any(Number), expect.any(Number), expect.any(Number));
    expect(linkStorage.draft(TOKEN)?.answers.sign).toMatchObject({ image: PNG });
  });

  it('fetches the states list only when a states question appears and answers with the USPS code', async () => {
    const api = startAt(
      [
        { id: 'intro', type: 13, text: { en: 'A few details about you.', es: 'Algunos datos.' }, required: false },
        { id: 'state', type: 9, text: { en: 'State', es: 'Estado' }, required: true },
        { id: 'phoneType', type: 14, text: { en: 'Phone type', es: 'Tipo de teléfono' }, required: true },
      ],
      {
        enums: {
          usStates: {
            type: 'usStates',
            values: [
              { value: 'TX', label: { en: 'Texas', es: 'Texas' } },
              { value: 'NM', label: { en: 'New Mexico', es: 'Nuevo México' } },
            ],
          },
          patientPhoneTypes: {
            type: 'patientPhoneTypes',
            values: [{ value: 7, code: 'MOBILE', label: { en: 'Mobile', es: 'Móvil' } }],
          },
        },
      },
    );
    const user = userEvent.setup();
    expect(await screen.findByRole('heading', { name: 'A few details about you.' })).toBeInTheDocument();
    expect(api.calls.some((call) => call.path.startsWith('/api/enums'))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const select = await screen.findByRole('combobox', { name: 'State' });
    await screen.findByRole('option', { name: 'New Mexico' });
    expect(api.calls.filter((call) => call.path.startsWith('/api/enums')).map((call) => call.path)).toEqual([
      '/api/enums?type=usStates',
    ]);
    await user.selectOptions(select, 'NM');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Phone type' }), 'MOBILE');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('New Mexico')).toBeInTheDocument();
    expect(screen.getByText('Mobile')).toBeInTheDocument();
    expect(linkStorage.draft(TOKEN)?.answers).toEqual({ state: 'NM', phoneType: 'MOBILE' });
  });

  it('checks formats with the contracts messages and gives inputs the right keyboards', async () => {
    startAt([
      { id: 'zip', type: 6, text: { en: 'ZIP code', es: 'Código postal' }, required: true },
      { id: 'email', type: 8, text: { en: 'Email', es: 'Correo' }, required: false },
      { id: 'agree', type: 16, text: { en: 'I agree', es: 'Acepto' }, required: true },
      {
        id: 'many',
        type: 4,
        text: { en: 'Pick any', es: 'Elija' },
        required: true,
        options: [
          { value: 'a', label: { en: 'Alpha', es: 'Alfa' } },
          { value: 'b', label: { en: 'Beta', es: 'Beta' } },
        ],
      },
    ]);
    const user = userEvent.setup();
    const zip = await screen.findByRole('textbox', { name: 'ZIP code' });
    expect(zip).toHaveAttribute('inputmode', 'numeric');
    await user.type(zip, '1234');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('ZIP code not valid');
    expect(zip).toHaveAttribute('aria-invalid', 'true');
    expect(zip.getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id);
    await user.type(zip, '5');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    const email = screen.getByRole('textbox', { name: 'Email' });
    expect(email).toHaveAttribute('type', 'email');
    await user.type(email, 'nope');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email not valid format');
    await user.clear(email);
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await user.click(screen.getByRole('checkbox', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Beta' }));
    await user.click(screen.getByRole('checkbox', { name: 'Alpha' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Alpha, Beta')).toBeInTheDocument();
    await waitFor(() =>
      expect(linkStorage.draft(TOKEN)?.answers).toEqual({ zip: '12345', email: '', agree: true, many: ['a', 'b'] }),
    );
  });

  it('shows a long Likert scale as a vertical list', async () => {
    const labels = ['Not at all', 'Several days', 'More than half the days', 'Nearly every day'];
    startAt([
      {
        id: 'likert',
        type: 3,
        text: { en: 'Feeling down?', es: '¿Decaído?' },
        required: true,
        options: labels.map((label, value) => ({ value, label: { en: label } })),
      },
    ]);
    expect(await screen.findByRole('radiogroup', { name: 'Feeling down?' })).not.toHaveClass('pw-scale');
  });
});
