import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { SET_PASSWORD_DIALOG_MS } from '@pathwell/contracts/constants';
import { setPasswordSchema } from '@pathwell/contracts/users';
import { ID_PATTERN } from '@pathwell/contracts/validation';
import { errorText } from '../../lib/error-text';
import { ApiError } from '../../lib/api-client';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { authApi } from './auth.api';
import { accountErrorText } from './auth-errors';
import { ErrorAlert } from '../../components/error-alert';

type Dialog = 'none' | 'saved' | 'failed' | 'resent';

/**
 * Password from an emailed link (welcome or reset). Section 4/8: success shows a dialog for 3 s and
 * goes to sign-in; a refused link offers to resend the set-up email.
 */
export function SetPasswordForm({ id, token }: { id: string; token: string }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>('none');
  const [error, setError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const linkComplete = ID_PATTERN.test(id) && token.length > 0;
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof setPasswordSchema>, unknown, z.output<typeof setPasswordSchema>>({
    resolver: zodResolver(setPasswordSchema),
    defaultValues: { id, token, newPassword: '', confirmNewPassword: '' },
  });

  useEffect(() => {
    if (dialog !== 'saved' && dialog !== 'resent') return;
    const timer = window.setTimeout(() => void navigate('/signin', { replace: true }), SET_PASSWORD_DIALOG_MS);
    return () => window.clearTimeout(timer);
  }, [dialog, navigate]);

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await authApi.setPassword(values);
      setDialog('saved');
    } catch (failure) {
      if (failure instanceof ApiError && failure.hasResponse) setDialog('failed');
      else setError(accountErrorText(failure, 'setPasswordFailed'));
    }
  });

  const resend = async () => {
    setResending(true);
    try {
      await authApi.resendWelcomeEmail(id);
      setDialog('resent');
    } catch (failure) {
      setDialog('none');
      notify('error', errorText(failure));
    } finally {
      setResending(false);
    }
  };

  if (!linkComplete) {
    return (
      <Stack gap="md">
        <ErrorAlert>{t('setPassword.linkIncomplete')}</ErrorAlert>
        <Button component={Link} to="/forget-password" variant="light">
          {t('forgetPassword.title')}
        </Button>
      </Stack>
    );
  }

  return (
    <>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="md">
          {error ? <ErrorAlert testId="set-password-error">{error}</ErrorAlert> : null}
          <PasswordInput
            label={t('setPassword.newPassword')}
            autoComplete="new-password"
            required
            description={t('validation:passwordPolicy')}
            error={translateValidation(errors.newPassword?.message)}
            data-testid="set-password-new"
            {...register('newPassword')}
          />
          <PasswordInput
            label={t('setPassword.confirmPassword')}
            autoComplete="new-password"
            required
            error={translateValidation(errors.confirmNewPassword?.message)}
            data-testid="set-password-confirm"
            {...register('confirmNewPassword')}
          />
          <Button type="submit" loading={isSubmitting} fullWidth size="md" data-testid="set-password-submit">
            {t('setPassword.submit')}
          </Button>
          <Anchor component={Link} to="/signin" size="sm" ta="center">
            {t('backToSignIn')}
          </Anchor>
        </Stack>
      </form>

      <Modal
        opened={dialog === 'saved'}
        onClose={() => void navigate('/signin', { replace: true })}
        title={t('setPassword.savedTitle')}
        centered
      >
        <Text>{t('setPassword.savedText')}</Text>
      </Modal>

      <Modal
        opened={dialog === 'failed'}
        onClose={() => setDialog('none')}
        title={t('setPassword.failedTitle')}
        centered
        // Section 8 gives this dialog its own OK and Close buttons; a second "Close" would confuse.
        withCloseButton={false}
        data-testid="set-password-failed-dialog"
      >
        <Stack gap="lg">
          <Text>{t('setPassword.failedText')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog('none')}>
              {t('common:close')}
            </Button>
            <Button onClick={() => void resend()} loading={resending} data-testid="set-password-resend">
              {t('common:ok')}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={dialog === 'resent'}
        onClose={() => void navigate('/signin', { replace: true })}
        title={t('setPassword.resentTitle')}
        centered
      >
        <Stack gap="lg">
          <Text>{t('setPassword.resentText')}</Text>
          <Group justify="flex-end">
            <Button onClick={() => void navigate('/signin', { replace: true })}>{t('common:ok')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
