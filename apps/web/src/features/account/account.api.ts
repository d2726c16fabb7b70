import { queryOptions } from '@tanstack/react-query';
import type { UpdateMyAccount, UserProfile } from '@pathwell/contracts/users';
import { api } from '../../lib/api-client';

export const accountQueries = {
  profile: (userId: string) =>
    queryOptions({
      queryKey: ['users', userId],
      queryFn: () => api.get<UserProfile>(`/api/users/${encodeURIComponent(userId)}`),
    }),
};

export const accountApi = {
  updateMyAccount: (input: UpdateMyAccount) => api.put<UserProfile>('/api/users/me', input),
  setTwoFactor: (enabled: boolean) => api.put<UserProfile>('/api/users/me/twofactor', { enabled }),
};
