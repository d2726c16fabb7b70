import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ID_PATTERN } from '@pathwell/contracts/validation';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { authApi } from './auth.api';
import { ErrorAlert } from '../../components/error-alert';

/** Confirms the sign-up email from the link's id and token, once per link. */
export function ConfirmSignUp({ id, token }: { id: string; token: string }) {
  const { t } = useTranslation('auth');
  const complete = ID_PATTERN.test(id) && token.length > 0;
  const confirmation = useQuery({
    queryKey: ['confirm-signup', id, token],
    queryFn: () => authApi.confirmSignUp({ id, token }),
    enabled: complete,
    retry: false,
    staleTime: Infinity,
    meta: { silent: true },
  });

  if (complete && confirmation.isPending) {
    return (
      <Center py="lg">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }

  if (confirmation.isSuccess) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status" data-testid="confirm-sign-up-done">
          {t('confirmSignUp.done')}
        </Alert>
        <Button component={Link} to="/signin">
          {t('backToSignIn')}
        </Button>
      </Stack>
    );
  }

  const failure = confirmation.error;
  const message =
    failure instanceof ApiError && !failure.hasResponse
      ? t('errors:texts.apiUnavailable')
      : failure instanceof ApiError && failure.status !== null && failure.status < 500
        ? t('confirmSignUp.failed')
        : failure
          ? errorText(failure)
          : t('confirmSignUp.failed');
  return (
    <Stack gap="md">
      <ErrorAlert testId="confirm-sign-up-failed">{message}</ErrorAlert>
      <Button component={Link} to="/signin" variant="light">
        {t('backToSignIn')}
      </Button>
    </Stack>
  );
}
