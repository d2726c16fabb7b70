import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { TOAST_AUTO_CLOSE_MS } from '@pathwell/contracts/constants';
import { i18n } from '../lib/i18n';
import { GlobalLoading } from './global-loading';
import { queryClient as defaultQueryClient } from './query-client';
import { cssVariablesResolver, themeFor } from './theme';

export function AppProviders({ children, queryClient = defaultQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <I18nextProvider i18n={i18n}>
      <ThemedProviders queryClient={queryClient}>{children}</ThemedProviders>
    </I18nextProvider>
  );
}

function ThemedProviders({ children, queryClient }: { children: ReactNode; queryClient: QueryClient }) {
  const { t } = useTranslation('common');
  const closeLabel = t('close');
  const theme = useMemo(() => themeFor(closeLabel), [closeLabel]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} zIndex={1000} />
      <QueryClientProvider client={queryClient}>
        {children}
        <GlobalLoading />
      </QueryClientProvider>
    </MantineProvider>
  );
}
