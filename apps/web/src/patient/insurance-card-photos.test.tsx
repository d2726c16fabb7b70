import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InsuranceCardSide, IntakeView } from '@pathwell/contracts/intake';
import { patientI18n } from './i18n';
import { PaperworkStep } from './intake-steps';
import { hasSecondaryInsurance, InsuranceCardPhotos, PHOTO_MAX_EDGE, PHOTO_QUALITY } from './insurance-card-photos';
import { TOKEN } from './test-helpers';

const ACCESS = 'access-token';
const JPEG_BYTES = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
const base = `/api/intake/${TOKEN}/insurance-card`;

type Call = { method: string; path: string; headers: Headers; body: unknown };
type Answer = { status: number; body?: unknown; image?: Uint8Array<ArrayBuffer> };

/** The intake API's card calls: each answer is taken by the first matcher that returns one. */
function fakeServer(answers: ((call: Call) => Answer | undefined)[] = []) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const call = { method: init?.method ?? 'GET', path: input, headers: new Headers(init?.headers), body: init?.body };
      calls.push(call);
      for (const answer of answers) {
        const result = answer(call);
        if (result?.image)
          return new Response(result.image, { status: result.status, headers: { 'Content-Type': 'image/jpeg' } });
        if (result)
          return new Response(result.body === undefined ? null : JSON.stringify(result.body), { status: result.status });
      }
      if (call.method === 'PUT') {
        const type = (call.body as Blob).type;
        return new Response(JSON.stringify({ side: input.split('/').pop(), contentType: type, size: (call.body as Blob).size }));
      }
      if (call.method === 'DELETE') return new Response(null, { status: 204 });
      return new Response(JSON.stringify({ error: 'Not found', messageKey: 'fileNotFound' }), { status: 404 });
    }),
  );
  return calls;
}

/** What the canvas was asked to draw and encode. */
let drawn: { width: number; height: number; type?: string; quality?: unknown }[] = [];
let nextBitmap = { width: 4032, height: 3024 };
let objectUrls = 0;

beforeEach(() => {
  drawn = [];
  nextBitmap = { width: 4032, height: 3024 };
  objectUrls = 0;
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async (file: Blob) => {
      if (file.type === 'image/heic') throw new DOMException('cannot decode', 'InvalidStateError');
      return { ...nextBitmap, close: vi.fn() };
    }),
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => ({ fillStyle: '', fillRect: vi.fn(), drawImage: vi.fn() }) as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (
    this: HTMLCanvasElement,
    callback: BlobCallback,
    type?: string,
    quality?: unknown,
  ) {
    drawn.push({ width: this.width, height: this.height, type, quality });
    callback(new Blob([JPEG_BYTES], { type: 'image/jpeg' }));
  });
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: vi.fn(() => `blob:thumbnail-${++objectUrls}`) });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function renderPhotos(
  options: { saved?: InsuranceCardSide[]; secondary?: boolean; language?: 'en' | 'es' } = {},
  callbacks = { onGone: vi.fn(), onSessionEnded: vi.fn() },
) {
  void patientI18n.changeLanguage(options.language ?? 'en');
  render(
    <I18nextProvider i18n={patientI18n}>
      <InsuranceCardPhotos
        token={TOKEN}
        accessToken={ACCESS}
        saved={options.saved ?? []}
        secondary={options.secondary ?? false}
        {...callbacks}
      />
    </I18nextProvider>,
  );
  return callbacks;
}

const photo = (name: string, type: string, size = 5_000_000) => new File([new Uint8Array(size)], name, { type });
const input = (name: RegExp | string) => screen.getByLabelText(name) as HTMLInputElement;

describe('insurance card photos', () => {
  it('offers a labelled camera input for each side of the primary card, reachable from the keyboard', async () => {
    fakeServer();
    renderPhotos();
    const group = screen.getByRole('group', { name: 'Photos of your insurance card (optional)' });
    const front = input('Take or choose a photo (front of your primary insurance card)');
    const back = input('Take or choose a photo (back of your primary insurance card)');
    expect(within(group).getAllByText('Take or choose a photo')).toHaveLength(2);
    for (const field of [front, back]) {
      expect(field).toHaveAttribute('type', 'file');
      expect(field).toHaveAttribute('accept', 'image/*');
      expect(field).toHaveAttribute('capture', 'environment');
    }
    await userEvent.tab();
    expect(front).toHaveFocus();
    await userEvent.tab();
    expect(back).toHaveFocus();
    expect(screen.queryByRole('group', { name: /secondary/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
  });

  it('shrinks a phone photo to 1600 px JPEG in the browser, sends it as the raw body and shows it with a Remove button', async () => {
    const calls = fakeServer();
    renderPhotos();
    await userEvent.upload(input(/front of your primary/), photo('IMG_0001.jpg', 'image/jpeg'));
    expect(await screen.findByRole('img', { name: 'Photo of the front of your primary insurance card' })).toHaveAttribute(
      'src',
      'blob:thumbnail-1',
    );
    expect(drawn).toEqual([{ width: PHOTO_MAX_EDGE, height: 1200, type: 'image/jpeg', quality: PHOTO_QUALITY }]);
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe(`${base}/primaryFront`);
    expect(put.headers.get('content-type')).toBe('image/jpeg');
    expect(put.headers.get('authorization')).toBe(`Bearer ${ACCESS}`);
    expect(put.body).toBeInstanceOf(Blob);
    expect((put.body as Blob).size).toBe(JPEG_BYTES.length);
    expect(screen.getByTestId('card-photo-primaryFront')).toHaveTextContent('Photo saved');
    expect(screen.getByRole('button', { name: 'Remove the photo of the front of your primary insurance card' })).toBeVisible();
    expect(input('Take or choose another photo (front of your primary insurance card)')).toBeEnabled();

    // A portrait photo keeps its shape; a small one is not enlarged.
    nextBitmap = { width: 3000, height: 4000 };
    await userEvent.upload(input(/back of your primary/), photo('IMG_0002.jpg', 'image/jpeg'));
    await screen.findByRole('img', { name: 'Photo of the back of your primary insurance card' });
    nextBitmap = { width: 800, height: 500 };
    await userEvent.upload(input(/another photo \(front/), photo('small.png', 'image/png', 1000));
    await waitFor(() => expect(drawn).toHaveLength(3));
    expect(drawn.slice(1).map(({ width, height }) => [width, height])).toEqual([
      [1200, 1600],
      [800, 500],
    ]);
  });

  it('shows a saved photo again after a reload, and Remove deletes it', async () => {
    const calls = fakeServer([
      (call) => (call.method === 'GET' && call.path === `${base}/primaryBack` ? { status: 200, image: JPEG_BYTES } : undefined),
    ]);
    renderPhotos({ saved: ['primaryBack'] });
    const image = await screen.findByRole('img', { name: 'Photo of the back of your primary insurance card' });
    expect(calls.find((call) => call.method === 'GET')?.headers.get('authorization')).toBe(`Bearer ${ACCESS}`);
    await userEvent.click(screen.getByRole('button', { name: 'Remove the photo of the back of your primary insurance card' }));
    await waitFor(() => expect(image).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([`${base}/primaryBack`]);
    expect(input('Take or choose a photo (back of your primary insurance card)')).toBeEnabled();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:thumbnail-1');
  });

  it("says what went wrong beside the photo: the server's field, an unreadable photo, a lost connection", async () => {
    let answer: Answer | 'network' = { status: 400, body: { error: 'too large', fields: { file: 'fileTooLarge' } } };
    const calls = fakeServer([
      (call) => {
        if (call.method !== 'PUT') return undefined;
        if (answer === 'network') throw new TypeError('Failed to fetch');
        return answer;
      },
    ]);
    renderPhotos();
    await userEvent.upload(input(/front of your primary/), photo('big.jpg', 'image/jpeg'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is too large');
    expect(screen.queryByRole('img')).not.toBeInTheDocument();

    // A photo this browser cannot draw is sent as it is only when the server takes that type.
    await userEvent.upload(input(/front of your primary/), photo('IMG_0003.heic', 'image/heic'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This photo could not be read. Please take or choose another photo.',
    );
    expect(calls.filter((call) => call.method === 'PUT')).toHaveLength(1);

    answer = 'network';
    await userEvent.upload(input(/front of your primary/), photo('IMG_0004.jpg', 'image/jpeg'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The photo could not be saved. Check your connection and try again.',
    );
    expect(input(/front of your primary/)).toBeEnabled();
  });

  it('sends an image the browser cannot shrink as it is when it is small and of an accepted type', async () => {
    const calls = fakeServer();
    vi.stubGlobal('createImageBitmap', vi.fn().mockRejectedValue(new Error('no decoder')));
    renderPhotos();
    await userEvent.upload(input(/front of your primary/), photo('card.png', 'image/png', 20_000));
    await screen.findByRole('img', { name: 'Photo of the front of your primary insurance card' });
    const put = calls.find((call) => call.method === 'PUT')!;
    expect(put.headers.get('content-type')).toBe('image/png');
    expect((put.body as Blob).size).toBe(20_000);
  });

  it('leaves the step when the session ended or the link closed', async () => {
    let status = 401;
    fakeServer([
      (call) => (call.method === 'PUT' ? { status, body: { error: status === 410 ? 'expired' : 'again' } } : undefined),
    ]);
    const callbacks = renderPhotos();
    await userEvent.upload(input(/front of your primary/), photo('a.jpg', 'image/jpeg'));
    await waitFor(() => expect(callbacks.onSessionEnded).toHaveBeenCalledTimes(1));
    status = 410;
    await userEvent.upload(input(/front of your primary/), photo('b.jpg', 'image/jpeg'));
    await waitFor(() => expect(callbacks.onGone).toHaveBeenCalledWith('expired'));
  });

  it('asks for the secondary card once a secondary insurance is entered or already has a photo, in Spanish too', async () => {
    fakeServer();
    expect(hasSecondaryInsurance({})).toBe(false);
    expect(hasSecondaryInsurance({ secondaryInsurance: { payer: '  ' } })).toBe(false);
    expect(hasSecondaryInsurance({ secondaryInsurance: { memberId: 'AB12' } })).toBe(true);
    renderPhotos({ secondary: true, language: 'es' });
    expect(screen.getByRole('group', { name: 'Fotos de su tarjeta de seguro secundario (opcional)' })).toBeInTheDocument();
    expect(input('Tomar o elegir una foto (frente de su tarjeta de seguro secundario)')).toHaveAttribute('type', 'file');
    expect(input('Tomar o elegir una foto (reverso de su tarjeta de seguro principal)')).toHaveAttribute('type', 'file');
  });

  it('shows the secondary card when it has a photo, even with its fields empty', async () => {
    fakeServer([(call) => (call.method === 'GET' ? { status: 200, image: JPEG_BYTES } : undefined)]);
    renderPhotos({ saved: ['secondaryFront'] });
    expect(await screen.findByRole('img', { name: 'Photo of the front of your secondary insurance card' })).toBeInTheDocument();
  });

  it('sit in the insurance section of the paperwork step, and go away for a self-pay patient', async () => {
    fakeServer();
    const view = {
      saved: { paperwork: { primaryInsurance: { payer: 'Aetna' } }, history: null, vas: null, bodymap: null, payment: null },
      insuranceCards: [],
      agreement: null,
      options: {
        pharmacyRequired: false,
        ask: { sexualOrientation: false, sexAssignedAtBirth: false, pronouns: false, communicationPreferences: false },
      },
    } as unknown as IntakeView;
    void patientI18n.changeLanguage('en');
    render(
      <I18nextProvider i18n={patientI18n}>
        <PaperworkStep
          token={TOKEN}
          accessToken={ACCESS}
          view={view}
          language="en"
          onFinished={vi.fn()}
          onGone={vi.fn()}
          onSessionEnded={vi.fn()}
        />
      </I18nextProvider>,
    );
    const insurance = screen.getByRole('group', { name: 'Insurance' });
    // The photos load with the step (a split chunk), so they are awaited.
    expect(await within(insurance).findByRole('group', { name: 'Photos of your insurance card (optional)' })).toBeInTheDocument();
    expect(within(insurance).getByLabelText(/front of your primary insurance card/)).toHaveAttribute('type', 'file');
    // A second insurance has the same fields, in its own group, and its own card photos once entered.
    expect(within(insurance).queryByRole('group', { name: 'Second insurance' })).not.toBeInTheDocument();
    await userEvent.click(within(insurance).getByRole('checkbox', { name: 'I have a second insurance' }));
    const second = within(insurance).getByRole('group', { name: 'Second insurance' });
    await userEvent.type(within(second).getByLabelText(/Insurance company/), 'Medicare');
    expect(within(second).getByLabelText('Your relationship to the insured person')).toBeInTheDocument();
    expect(
      await within(insurance).findByRole('group', { name: 'Photos of your secondary insurance card (optional)' }),
    ).toBeInTheDocument();
    await userEvent.click(within(insurance).getByRole('checkbox', { name: 'I do not have insurance (self-pay)' }));
    expect(within(insurance).queryByRole('group', { name: /Photos of your insurance card/ })).not.toBeInTheDocument();
  });
});
