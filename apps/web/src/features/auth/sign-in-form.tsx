import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Checkbox, Group, PasswordInput, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { signInSchema, type Authenticated } from '@pathwell/contracts/users';
import { twoFactorCodeSchema } from '@pathwell/contracts/validation';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { getRememberedEmail, setRememberedEmail, storeSignIn, takeReturnPath } from '../../lib/session-storage';
import { authApi } from './auth.api';
import { accountErrorText } from './auth-errors';
import { ErrorAlert } from '../../components/error-alert';

type SignInValues = z.input<typeof signInSchema>;

function SignInError({ message }: { message: string | null }) {
  return message ? <ErrorAlert testId="sign-in-error">{message}</ErrorAlert> : null;
}

function TwoFactorStep({
  challengeId,
  onSignedIn,
  onBack,
}: {
  challengeId: string;
  onSignedIn: (result: Authenticated) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('auth');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const verify = async () => {
    const parsed = twoFactorCodeSchema.safeParse(code);
    if (!parsed.success) {
      setCodeError(translateValidation(parsed.error.issues[0]?.message));
      return;
    }
    setCodeError(undefined);
    setError(null);
    setBusy(true);
    try {
      const result = await authApi.verifyTwoFactor({ challengeId, code: parsed.data });
      if (!result.twoFactorRequired) onSignedIn(result);
    } catch (failure) {
      setError(accountErrorText(failure, 'loginFailed', 'apiUnavailable'));
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    setError(null);
    try {
      await authApi.resendTwoFactor(challengeId);
      notify('success', t('twoFactor.resent'));
    } catch (failure) {
      setError(accountErrorText(failure, 'loginFailed', 'apiUnavailable'));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void verify();
      }}
    >
      <Stack gap="md">
        <Text>{t('twoFactor.description')}</Text>
        <SignInError message={error} />
        <div role="group" aria-labelledby="two-factor-code-label">
          <Text id="two-factor-code-label" fw={500} size="sm" mb={6}>
            {t('twoFactor.codeLabel')}
          </Text>
          <PinInput
            id="two-factor-code"
            length={6}
            type="number"
            oneTimeCode
            value={code}
            onChange={setCode}
            onComplete={setCode}
            error={Boolean(codeError)}
            getInputProps={(index) => ({ 'aria-label': t('twoFactor.digit', { position: index + 1 }) })}
            data-testid="two-factor-code"
            size="md"
            autoFocus
          />
          {codeError ? (
            <Text c="red" size="sm" mt={6} role="alert">
              {codeError}
            </Text>
          ) : null}
        </div>
        <Button type="submit" loading={busy} fullWidth data-testid="two-factor-submit">
          {t('twoFactor.submit')}
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={onBack}>
            {t('twoFactor.back')}
          </Anchor>
          <Anchor component="button" type="button" size="sm" onClick={() => void resend()} data-testid="two-factor-resend">
            {t('twoFactor.resend')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}

export function SignInForm() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [rememberedEmail] = useState(getRememberedEmail);
  const [remember, setRemember] = useState(Boolean(rememberedEmail));
  const [error, setError] = useState<string | null>(null);
  const [challengeId, setChallengeId] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues, unknown, z.output<typeof signInSchema>>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: rememberedEmail ?? '', password: '' },
  });

  const finish = (result: Authenticated) => {
    storeSignIn(result);
    queryClient.clear();
    void navigate(takeReturnPath() ?? '/', { replace: true });
  };

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      const result = await authApi.authenticate(values);
      // Remember me keeps the email address only, never the password (section 2 Account).
      setRememberedEmail(remember ? values.email : null);
      if (result.twoFactorRequired) setChallengeId(result.challengeId);
      else finish(result);
    } catch (failure) {
      setError(accountErrorText(failure, 'loginFailed', 'apiUnavailable'));
    }
  });

  if (challengeId) {
    return <TwoFactorStep challengeId={challengeId} onSignedIn={finish} onBack={() => setChallengeId(null)} />;
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('signIn.title')} data-testid="sign-in-form">
      <Stack gap="md">
        <SignInError message={error} />
        <TextInput
          label={t('signIn.email')}
          type="email"
          autoComplete="username"
          required
          error={translateValidation(errors.email?.message)}
          data-testid="sign-in-email"
          {...register('email')}
        />
        <PasswordInput
          label={t('signIn.password')}
          autoComplete="current-password"
          required
          error={translateValidation(errors.password?.message)}
          data-testid="sign-in-password"
          {...register('password')}
        />
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Checkbox
            label={t('signIn.rememberMe')}
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
            data-testid="sign-in-remember"
          />
          <Anchor component={Link} to="/forget-password" size="sm" data-testid="forgot-password-link">
            {t('signIn.forgotPassword')}
          </Anchor>
        </Group>
        <Button type="submit" loading={isSubmitting} fullWidth size="md" data-testid="sign-in-submit">
          {t('signIn.submit')}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          {t('signIn.noAccount')}{' '}
          <Anchor component={Link} to="/signup" size="sm" data-testid="sign-up-link">
            {t('signIn.signUp')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
