import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { signUpSchema } from '@pathwell/contracts/users';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { authApi } from './auth.api';
import { ErrorAlert } from '../../components/error-alert';

export function SignUpForm() {
  const { t } = useTranslation('auth');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof signUpSchema>, unknown, z.output<typeof signUpSchema>>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { email: '', name: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await authApi.signUp(values);
      setDone(true);
    } catch (failure) {
      if (!applyServerFieldErrors(failure, setFieldError, ['email', 'name', 'password'])) setError(errorText(failure));
    }
  });

  if (done) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconMailCheck size={18} />} role="status" data-testid="sign-up-done">
          {t('signUp.done')}
        </Alert>
        <Button component={Link} to="/signin" variant="light">
          {t('backToSignIn')}
        </Button>
      </Stack>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('signUp.title')}>
      <Stack gap="md">
        {error ? <ErrorAlert>{error}</ErrorAlert> : null}
        <TextInput
          label={t('signUp.name')}
          autoComplete="name"
          required
          error={translateValidation(errors.name?.message)}
          data-testid="sign-up-name"
          {...register('name')}
        />
        <TextInput
          label={t('signIn.email')}
          type="email"
          autoComplete="email"
          required
          error={translateValidation(errors.email?.message)}
          data-testid="sign-up-email"
          {...register('email')}
        />
        <PasswordInput
          label={t('signIn.password')}
          autoComplete="new-password"
          required
          description={t('validation:passwordPolicy')}
          error={translateValidation(errors.password?.message)}
          data-testid="sign-up-password"
          {...register('password')}
        />
        <Text size="xs" c="dimmed">
          {t('signUp.termsNotice')}{' '}
          <Anchor component={Link} to="/terms-and-conditions" size="xs">
            {t('signUp.termsLink')}
          </Anchor>
        </Text>
        <Button type="submit" loading={isSubmitting} fullWidth size="md" data-testid="sign-up-submit">
          {t('signUp.submit')}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          {t('signUp.haveAccount')}{' '}
          <Anchor component={Link} to="/signin" size="sm">
            {t('signIn.submit')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
