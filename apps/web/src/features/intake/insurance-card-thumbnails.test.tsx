import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InsuranceCardPhoto } from '@pathwell/contracts/intake';
import { renderAt } from '../../test/render';
import { InsuranceCardThumbnails } from './insurance-card-thumbnails';

const patientId = '77777777-7777-4777-8777-777777777771';
const photo = (id: string, side: InsuranceCardPhoto['side']): InsuranceCardPhoto => ({
  id,
  side,
  createdAt: '2025-03-20T13:00:00.000Z',
  url: `/api/patients/${patientId}/insurance-cards/${id}`,
});

beforeEach(() => {
  let count = 0;
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: vi.fn(() => `blob:card-${++count}`) });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: vi.fn() });
});

describe('insurance card thumbnails', () => {
  it('fetch each photo with the session and open it in a new tab, named by its side', async () => {
    const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2')
        ? new Response(JSON.stringify({ error: 'File not found', code: 'NOT_FOUND' }), {
            status: 404,
            headers: { 'Content-Type': 'application/json' },
          })
        : new Response(new Uint8Array([0xff, 0xd8, 0xff]), { headers: { 'Content-Type': 'image/jpeg' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderAt(
      <InsuranceCardThumbnails
        photos={[
          photo('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1', 'primaryFront'),
          photo('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2', 'primaryBack'),
        ]}
      />,
    );
    expect(screen.getByText('Insurance card photos')).toBeInTheDocument();
    const image = await screen.findByRole('img', { name: 'Insurance card photo: Primary card, front' });
    expect(image).toHaveAttribute('src', 'blob:card-1');
    const link = screen.getByRole('link', { name: 'Open the insurance card photo (Primary card, front) in a new tab' });
    expect(link).toHaveAttribute('href', 'blob:card-1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(await screen.findByText('The photo could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('Primary card, back')).toBeInTheDocument();
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(new Headers(init.headers).get('accept')).toBe('image/*');
  });

  it('show nothing when the intake has no photos', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderAt(<InsuranceCardThumbnails photos={[]} />);
    expect(screen.queryByText('Insurance card photos')).not.toBeInTheDocument();
  });
});
