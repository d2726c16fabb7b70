import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { changePasswordSchema } from '@pathwell/contracts/users';
import { ApiError } from '../../lib/api-client';
import { i18n, translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { authApi } from './auth.api';
import { ErrorAlert } from '../../components/error-alert';

type Values = z.input<typeof changePasswordSchema>;
const shownFields = ['currentPassword', 'newPassword', 'confirmNewPassword'] as const;

/** A wrong current password comes back as `currentPassword: invalid`; say so in the person's words. */
function fieldText(field: string, key: string): string {
  if (field === 'currentPassword' && key === 'invalid') return i18n.t('account:changePassword.currentWrong');
  return translateValidation(key) ?? key;
}

/** Section 8: the joined list of errors, else the message, else 'Unable to update password'. */
function changePasswordErrorText(error: unknown): string {
  if (error instanceof ApiError && error.hasResponse) {
    const listed = Object.entries(error.fields).map(([field, key]) => fieldText(field, key));
    if (listed.length > 0) return [...new Set(listed)].join(' ');
    if (error.serverMessage) return error.serverMessage;
  }
  return i18n.t('errors:texts.updatePasswordFailed');
}

export function ChangePasswordForm({ userId }: { userId: string }) {
  const { t } = useTranslation('account');
  const [error, setError] = useState<string | null>(null);
  const empty: Values = { id: userId, currentPassword: '', newPassword: '', confirmNewPassword: '' };
  const {
    register,
    handleSubmit,
    reset,
    setError: setFieldError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, z.output<typeof changePasswordSchema>>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: empty,
  });

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    try {
      await authApi.changePassword(values);
      reset(empty);
      notify('success', t('changePassword.done'));
    } catch (failure) {
      if (failure instanceof ApiError) {
        for (const field of shownFields) {
          const key = failure.fields[field];
          if (key) setFieldError(field, { type: 'server', message: fieldText(field, key) });
        }
      }
      setError(changePasswordErrorText(failure));
    }
  });

  return (
    <Paper withBorder p="xl" radius="lg" maw={560}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('changePassword.title')}>
        <Stack gap="md">
          {error ? <ErrorAlert testId="change-password-error">{error}</ErrorAlert> : null}
          <PasswordInput
            label={t('changePassword.current')}
            autoComplete="current-password"
            required
            error={translateValidation(errors.currentPassword?.message)}
            data-testid="change-password-current"
            {...register('currentPassword')}
          />
          <PasswordInput
            label={t('changePassword.new')}
            autoComplete="new-password"
            required
            description={t('validation:passwordPolicy')}
            error={translateValidation(errors.newPassword?.message)}
            data-testid="change-password-new"
            {...register('newPassword')}
          />
          <PasswordInput
            label={t('changePassword.confirm')}
            autoComplete="new-password"
            required
            error={translateValidation(errors.confirmNewPassword?.message)}
            data-testid="change-password-confirm"
            {...register('confirmNewPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={isSubmitting} data-testid="change-password-submit">
              {t('changePassword.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
