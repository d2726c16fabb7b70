import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { forgetPasswordSchema } from '@pathwell/contracts/users';
import { translateValidation } from '../../lib/i18n';
import { getRememberedEmail } from '../../lib/session-storage';
import { authApi } from './auth.api';
import { accountErrorText } from './auth-errors';
import { ErrorAlert } from '../../components/error-alert';

export function ForgetPasswordForm() {
  const { t } = useTranslation('auth');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof forgetPasswordSchema>, unknown, z.output<typeof forgetPasswordSchema>>({
    resolver: zodResolver(forgetPasswordSchema),
    defaultValues: { email: getRememberedEmail() ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await authApi.forgetPassword(values);
      setSent(true);
    } catch (failure) {
      setError(accountErrorText(failure, 'forgetPasswordFailed'));
    }
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('forgetPassword.title')}>
      <Stack gap="md">
        {sent ? (
          <Alert color="teal" variant="light" icon={<IconMailCheck size={18} />} role="status" data-testid="forget-password-sent">
            {t('forgetPassword.sent')}
          </Alert>
        ) : null}
        {error ? <ErrorAlert testId="forget-password-error">{error}</ErrorAlert> : null}
        <TextInput
          label={t('signIn.email')}
          type="email"
          autoComplete="email"
          required
          error={translateValidation(errors.email?.message)}
          data-testid="forget-password-email"
          {...register('email')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth size="md" data-testid="forget-password-submit">
          {t(sent ? 'forgetPassword.resend' : 'forgetPassword.submit')}
        </Button>
        <Anchor component={Link} to="/signin" size="sm" ta="center">
          {t('backToSignIn')}
        </Anchor>
      </Stack>
    </form>
  );
}
