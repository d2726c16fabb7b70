import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';
import { errorText } from '../lib/error-text';
import { notify } from '../lib/notify';

function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        // The invalid-token answer already sends the person to sign in; shell calls fail silently.
        if (query.meta?.silent || (error instanceof ApiError && error.isInvalidToken)) return;
        notify('error', errorText(error));
      },
    }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) => failureCount < 1 && error instanceof ApiError && !error.hasResponse,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
