import { zodResolver } from '@hookform/resolvers/zod';
import {
  Avatar,
  Button,
  FileButton,
  Group,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { updateMyAccountSchema, type UserProfile } from '@pathwell/contracts/users';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { resizeImageToDataUrl } from '../../lib/resize-image';
import { accountApi } from './account.api';
import { ErrorAlert } from '../../components/error-alert';

type Values = z.input<typeof updateMyAccountSchema>;
const shownFields = ['firstName', 'lastName', 'email', 'currentPassword', 'profileImage'] as const;

function TwoFactorSetting({ profile, onSaved }: { profile: UserProfile; onSaved: (profile: UserProfile) => void }) {
  const { t } = useTranslation('account');
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => accountApi.setTwoFactor(enabled),
    onSuccess: (updated) => {
      onSaved(updated);
      notify('success', t(updated.twoFactorEnabled ? 'myAccount.twoFactorOn' : 'myAccount.twoFactorOff'));
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  return (
    <Paper withBorder p="xl" radius="lg">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('myAccount.securityTitle')}
        </Title>
        <Switch
          checked={toggle.isPending ? Boolean(toggle.variables) : profile.twoFactorEnabled}
          onChange={(event) => toggle.mutate(event.currentTarget.checked)}
          disabled={toggle.isPending}
          label={t('myAccount.twoFactor')}
          description={t('myAccount.twoFactorHelp')}
          data-testid="my-account-two-factor"
        />
      </Stack>
    </Paper>
  );
}

export function MyAccountForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    reset,
    setError: setFieldError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values, unknown, z.output<typeof updateMyAccountSchema>>({
    resolver: zodResolver(updateMyAccountSchema),
    defaultValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      email: profile.email,
      profileImage: profile.profileImage,
      currentPassword: '',
    },
  });

  const image = watch('profileImage');
  const email = watch('email');
  const emailChanged = email.trim().toLowerCase() !== profile.email.toLowerCase();

  const saved = (updated: UserProfile) => {
    queryClient.setQueryData(['users', updated.id], updated);
    void queryClient.invalidateQueries({ queryKey: ['session'], exact: true });
  };

  const onSubmit = handleSubmit(async (values) => {
    setError(null);
    if (emailChanged && !values.currentPassword) {
      setFieldError('currentPassword', { type: 'required', message: 'previousPasswordRequired' });
      return;
    }
    try {
      const updated = await accountApi.updateMyAccount({
        ...values,
        currentPassword: emailChanged ? values.currentPassword : undefined,
      });
      saved(updated);
      reset({ ...values, email: updated.email, currentPassword: '' });
      notify('success', t('myAccount.saved'));
    } catch (failure) {
      if (!applyServerFieldErrors(failure, setFieldError, shownFields)) setError(errorText(failure));
    }
  });

  const pickImage = async (file: File | null) => {
    setImageError(null);
    if (!file) return;
    try {
      setValue('profileImage', await resizeImageToDataUrl(file), { shouldDirty: true, shouldValidate: true });
    } catch {
      setImageError(t('myAccount.imageUnreadable'));
    }
  };

  return (
    <Stack gap="lg" maw={720}>
      <Paper withBorder p="xl" radius="lg">
        <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('myAccount.title')}>
          <Stack gap="md">
            {error ? <ErrorAlert testId="my-account-error">{error}</ErrorAlert> : null}
            <Group gap="lg" align="center">
              <Avatar src={image} alt={t('myAccount.imageAlt')} size={96} radius={48} color="teal">
                {`${profile.firstName.charAt(0)}${profile.lastName.charAt(0)}`.toUpperCase()}
              </Avatar>
              <Stack gap={6}>
                <Group gap="xs">
                  <FileButton onChange={(file) => void pickImage(file)} accept="image/png,image/jpeg,image/webp">
                    {(props) => (
                      <Button
                        {...props}
                        variant="light"
                        leftSection={<IconPhoto size={16} aria-hidden />}
                        data-testid="my-account-image"
                      >
                        {t('myAccount.chooseImage')}
                      </Button>
                    )}
                  </FileButton>
                  {image ? (
                    <Button
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={16} aria-hidden />}
                      onClick={() => setValue('profileImage', null, { shouldDirty: true })}
                    >
                      {t('myAccount.removeImage')}
                    </Button>
                  ) : null}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('myAccount.imageHelp')}
                </Text>
                {imageError || errors.profileImage ? (
                  <Text size="sm" c="red" role="alert">
                    {imageError ?? translateValidation(errors.profileImage?.message)}
                  </Text>
                ) : null}
              </Stack>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('myAccount.firstName')}
                autoComplete="given-name"
                required
                error={translateValidation(errors.firstName?.message)}
                data-testid="my-account-first-name"
                {...register('firstName')}
              />
              <TextInput
                label={t('myAccount.lastName')}
                autoComplete="family-name"
                required
                error={translateValidation(errors.lastName?.message)}
                data-testid="my-account-last-name"
                {...register('lastName')}
              />
            </SimpleGrid>
            <TextInput
              label={t('myAccount.email')}
              type="email"
              autoComplete="email"
              required
              error={translateValidation(errors.email?.message)}
              data-testid="my-account-email"
              {...register('email')}
            />
            {emailChanged ? (
              <PasswordInput
                label={t('myAccount.currentPassword')}
                description={t('myAccount.currentPasswordHelp')}
                autoComplete="current-password"
                required
                error={translateValidation(errors.currentPassword?.message)}
                data-testid="my-account-current-password"
                {...register('currentPassword')}
              />
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={isSubmitting} disabled={!isDirty} data-testid="my-account-save">
                {t('common:save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <TwoFactorSetting profile={profile} onSaved={saved} />
    </Stack>
  );
}
