import { zodResolver } from '@hookform/resolvers/zod';
import {
  Avatar,
  Badge,
  Button,
  FileButton,
  Group,
  MultiSelect,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconMailForward, IconPhoto, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import type { Role } from '@pathwell/contracts/roles';
import {
  clinicalProviderTypes,
  createUserSchema,
  grantableRoles,
  setPinSchema,
  type ClinicalProviderType,
  type CreateUserParsed,
  type SystemUserDetail,
} from '@pathwell/contracts/user-admin';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { resizeImageToDataUrl } from '../../lib/resize-image';
import { ConfirmDeleteUser, StatusBadge, fullName } from './user-list';
import { userApi, userKeys, userQueries } from './users.api';

type Values = z.input<typeof createUserSchema>;
const shownFields = [
  'firstName',
  'lastName',
  'email',
  'role',
  'clinicIds',
  'credentials',
  'npi',
  'clinicalProviderType',
  'profileImage',
] as const;

export type Actor = { id: string; role: Role };

const providerTypeKeys: Record<ClinicalProviderType, string> = {
  Doctor: 'doctor',
  'Nurse Practitioner': 'nursePractitioner',
  'Physician Assistant': 'physicianAssistant',
};

function defaultsFrom(user: SystemUserDetail | undefined): Values {
  return {
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    email: user?.email ?? '',
    role: user?.role ?? ('' as Role),
    isParent: user?.isParent ?? false,
    isChild: user?.isChild ?? false,
    // The home clinic is always kept by the server; the choice is about the other clinics.
    clinicIds: user ? user.clinicIds.filter((id) => id !== user.homeClinicId) : [],
    credentials: user?.credentials ?? '',
    npi: user?.npi ?? '',
    clinicalProviderType: user?.clinicalProviderType ?? null,
    twoFactorEnabled: user?.twoFactorEnabled ?? false,
    isActive: user?.isActive ?? true,
    profileImage: user?.profileImage ?? null,
  };
}

/** The admin PIN used to approve cash collection: six digits, only for administrators. */
function PinSetting({ user }: { user: SystemUserDetail }) {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof setPinSchema>>({ resolver: zodResolver(setPinSchema), defaultValues: { pin: '' } });
  const [failure, setFailure] = useState<string | null>(null);
  const [hasPin, setHasPin] = useState(user.hasPin);
  const onSubmit = handleSubmit(async ({ pin }) => {
    setFailure(null);
    try {
      const updated = await userApi.setPin(user.id, pin);
      queryClient.setQueryData(userKeys.detail(user.id), updated);
      setHasPin(updated.hasPin);
      reset({ pin: '' });
      notify('success', t('pin.saved'));
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ['pin'] as const)) setFailure(errorText(error));
    }
  });
  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="user-pin-title">
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={2} size="h4" id="user-pin-title">
              {t('pin.title')}
            </Title>
            <Badge variant="light" color={hasPin ? 'teal' : 'gray'}>
              {hasPin ? t('pin.isSet') : t('pin.notSet')}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {t('pin.help')}
          </Text>
          {failure ? <ErrorAlert>{failure}</ErrorAlert> : null}
          <Group align="flex-start" gap="sm">
            <PasswordInput
              label={t('pin.label')}
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              w={200}
              error={translateValidation(errors.pin?.message)}
              data-testid="user-pin"
              {...register('pin')}
            />
            <Button type="submit" mt={25} loading={isSubmitting} variant="light" data-testid="user-pin-save">
              {t('pin.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * Create or edit a System User: names, email, role (only roles the actor may give), parent-user clinics,
 * doctor details for Doctors, two-factor and active switches, picture; in edit mode also the welcome
 * email, the admin PIN and delete.
 */
export function UserForm({ user, actor }: { user?: SystemUserDetail; actor: Actor }) {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const isSelf = user?.id === actor.id;
  const [failure, setFailure] = useState<string | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const clinics = useQuery(userQueries.clinicOptions());

  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values, unknown, CreateUserParsed>({
    resolver: zodResolver(createUserSchema),
    defaultValues: defaultsFrom(user),
  });
  const role = useWatch({ control, name: 'role' });
  const isParent = useWatch({ control, name: 'isParent' });
  const image = useWatch({ control, name: 'profileImage' });

  const resend = useMutation({
    mutationFn: () => userApi.resendWelcome(user!.id, user!.role),
    onSuccess: () => notify('success', t('form.welcomeSent', { email: user?.email })),
    onError: (error) => notify('error', errorText(error)),
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      if (user) {
        const result = await userApi.update(user.id, values);
        // Section 5: an update counts as done only with HTTP 2xx and isSuccess.
        if (!result.isSuccess) throw new Error(t('form.saveFailed'));
        notify('success', t('form.updated', { name: fullName(result) }));
      } else {
        const created = await userApi.register(values);
        notify(
          'success',
          created.status === 'invited'
            ? t('form.createdInvited', { email: created.email })
            : t('form.created', { name: fullName(created) }),
        );
      }
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      await navigate('/users');
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, shownFields)) setFailure(errorText(error));
    }
  });

  const pickImage = async (file: File | null) => {
    setImageError(null);
    if (!file) return;
    try {
      setValue('profileImage', await resizeImageToDataUrl(file), { shouldDirty: true, shouldValidate: true });
    } catch {
      setImageError(t('form.imageUnreadable'));
    }
  };

  const roleOptions = grantableRoles(actor.role).map((value) => ({ value, label: t(`roles.${value}`) }));
  const clinicOptions = (clinics.data ?? []).map((clinic) => ({ value: clinic.id, label: clinic.name }));
  const targetIsAdministrator = user && (user.role === 'Admin' || user.role === 'SystemManager');

  return (
    <Stack gap="lg" maw={820}>
      <Paper withBorder p="xl" radius="lg">
        <form
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          aria-label={user ? t('form.editTitle') : t('form.createTitle')}
        >
          <Stack gap="md">
            {failure ? <ErrorAlert testId="user-form-error">{failure}</ErrorAlert> : null}
            {user ? (
              <Group gap="xs">
                <StatusBadge status={user.status} />
                {user.status === 'invited' ? (
                  <Text size="sm" c="dimmed">
                    {t('form.invitedHelp')}
                  </Text>
                ) : null}
              </Group>
            ) : (
              <Text size="sm" c="dimmed">
                {t('form.createHelp')}
              </Text>
            )}
            <Group gap="lg" align="center">
              <Avatar src={image} alt={t('form.imageAlt')} size={72} radius={36} color="teal">
                {user ? `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase() : null}
              </Avatar>
              <Stack gap={4}>
                <Group gap="xs">
                  <FileButton onChange={(file) => void pickImage(file)} accept="image/png,image/jpeg,image/webp">
                    {(props) => (
                      <Button {...props} variant="light" size="xs" leftSection={<IconPhoto size={14} aria-hidden />}>
                        {t('form.chooseImage')}
                      </Button>
                    )}
                  </FileButton>
                  {image ? (
                    <Button
                      variant="subtle"
                      size="xs"
                      color="red"
                      onClick={() => setValue('profileImage', null, { shouldDirty: true })}
                    >
                      {t('form.removeImage')}
                    </Button>
                  ) : null}
                </Group>
                {imageError || errors.profileImage ? (
                  <Text size="sm" c="red" role="alert">
                    {imageError ?? translateValidation(errors.profileImage?.message)}
                  </Text>
                ) : null}
              </Stack>
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('fields.firstName')}
                required
                autoComplete="off"
                error={translateValidation(errors.firstName?.message)}
                data-testid="user-first-name"
                {...register('firstName')}
              />
              <TextInput
                label={t('fields.lastName')}
                required
                autoComplete="off"
                error={translateValidation(errors.lastName?.message)}
                data-testid="user-last-name"
                {...register('lastName')}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('fields.email')}
                type="email"
                required
                autoComplete="off"
                error={translateValidation(errors.email?.message)}
                data-testid="user-email"
                {...register('email')}
              />
              <Controller
                control={control}
                name="role"
                render={({ field }) => (
                  <Select
                    label={t('fields.role')}
                    required
                    data={roleOptions}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    onBlur={field.onBlur}
                    disabled={isSelf}
                    description={isSelf ? t('form.ownRole') : undefined}
                    allowDeselect={false}
                    error={translateValidation(errors.role?.message)}
                    data-testid="user-role"
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
              />
            </SimpleGrid>

            {role === 'Doctor' ? (
              <Paper withBorder p="md" radius="md" component="fieldset">
                <Text component="legend" fw={600} size="sm" px={4}>
                  {t('form.doctorDetails')}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 3 }}>
                  <TextInput
                    label={t('fields.credentials')}
                    placeholder={t('form.credentialsPlaceholder')}
                    error={translateValidation(errors.credentials?.message)}
                    data-testid="user-credentials"
                    {...register('credentials')}
                  />
                  <TextInput
                    label={t('fields.npi')}
                    inputMode="numeric"
                    maxLength={10}
                    error={translateValidation(errors.npi?.message)}
                    data-testid="user-npi"
                    {...register('npi')}
                  />
                  <Controller
                    control={control}
                    name="clinicalProviderType"
                    render={({ field }) => (
                      <Select
                        label={t('fields.clinicalProviderType')}
                        required
                        data={clinicalProviderTypes.map((value) => ({
                          value,
                          label: t(`providerTypes.${providerTypeKeys[value]}`),
                        }))}
                        value={field.value ?? null}
                        onChange={(value) => field.onChange(value)}
                        onBlur={field.onBlur}
                        error={translateValidation(errors.clinicalProviderType?.message)}
                        data-testid="user-provider-type"
                        comboboxProps={{ withinPortal: true }}
                      />
                    )}
                  />
                </SimpleGrid>
              </Paper>
            ) : null}

            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Controller
                control={control}
                name="isParent"
                render={({ field }) => (
                  <Switch
                    label={t('fields.isParent')}
                    description={t('form.isParentHelp')}
                    checked={Boolean(field.value)}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                    data-testid="user-is-parent"
                  />
                )}
              />
              <Controller
                control={control}
                name="isChild"
                render={({ field }) => (
                  <Switch
                    label={t('fields.isChild')}
                    description={t('form.isChildHelp')}
                    checked={Boolean(field.value)}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                    data-testid="user-is-child"
                  />
                )}
              />
            </SimpleGrid>
            {isParent ? (
              <Controller
                control={control}
                name="clinicIds"
                render={({ field }) => (
                  <MultiSelect
                    label={t('fields.clinics')}
                    description={t('form.clinicsHelp')}
                    data={clinicOptions}
                    value={field.value ?? []}
                    onChange={field.onChange}
                    searchable
                    error={translateValidation(errors.clinicIds?.message)}
                    data-testid="user-clinics"
                    comboboxProps={{ withinPortal: true }}
                  />
                )}
              />
            ) : null}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Controller
                control={control}
                name="twoFactorEnabled"
                render={({ field }) => (
                  <Switch
                    label={t('fields.twoFactor')}
                    description={t('form.twoFactorHelp')}
                    checked={Boolean(field.value)}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                    data-testid="user-two-factor"
                  />
                )}
              />
              <Controller
                control={control}
                name="isActive"
                render={({ field }) => (
                  <Switch
                    label={t('fields.isActive')}
                    description={isSelf ? t('form.ownActive') : t('form.activeHelp')}
                    checked={Boolean(field.value)}
                    disabled={isSelf}
                    onChange={(event) => field.onChange(event.currentTarget.checked)}
                    data-testid="user-active"
                  />
                )}
              />
            </SimpleGrid>
            <Group justify="space-between" mt="sm">
              <Group gap="xs">
                {user && !isSelf ? (
                  <Button
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={16} aria-hidden />}
                    onClick={() => setDeleting(true)}
                    data-testid="user-delete"
                  >
                    {t('delete.action')}
                  </Button>
                ) : null}
                {user?.status === 'invited' ? (
                  <Button
                    variant="light"
                    leftSection={<IconMailForward size={16} aria-hidden />}
                    loading={resend.isPending}
                    onClick={() => resend.mutate()}
                    data-testid="user-resend-welcome"
                  >
                    {t('form.resendWelcome')}
                  </Button>
                ) : null}
              </Group>
              <Group gap="xs">
                <Button variant="default" onClick={() => void navigate('/users')}>
                  {t('common:cancel')}
                </Button>
                <Button type="submit" loading={isSubmitting} data-testid="user-save">
                  {user ? t('common:save') : t('form.create')}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      </Paper>
      {user && targetIsAdministrator ? <PinSetting user={user} /> : null}
      {user ? (
        <ConfirmDeleteUser
          user={deleting ? user : null}
          onClose={() => setDeleting(false)}
          onDeleted={() => void navigate('/users')}
        />
      ) : null}
    </Stack>
  );
}
