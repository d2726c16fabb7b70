import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import {
  createInstanceSchema,
  updateInstanceSchema,
  type CreateInstanceParsed,
  type Instance,
  type UpdateInstanceParsed,
} from '@pathwell/contracts/instances';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { clinicQueries, instanceApi, instanceKeys } from './instances.api';

const timeZones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['America/Chicago'];
/** The browser's zone when the list has it (headless browsers report UTC, which it lacks). */
const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function OrganisationSelect<T extends FieldValues>({
  control,
  name,
  error,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  error?: string;
}) {
  const { t } = useTranslation('instances');
  const organisations = useQuery(clinicQueries.list());
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={t('fields.organisation')}
          description={t('instances.organisationHelp')}
          placeholder={t('none')}
          data={(organisations.data ?? []).map((organisation) => ({ value: organisation.id, label: organisation.name }))}
          value={(field.value as string | null) ?? null}
          onChange={(value) => field.onChange(value)}
          clearable
          error={translateValidation(error)}
          data-testid="instance-organisation"
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );
}

function FormFrame({
  failure,
  children,
  onCancel,
  submitting,
  submitLabel,
}: {
  failure: string | null;
  children: ReactNode;
  onCancel: () => void;
  submitting: boolean;
  submitLabel: string;
}) {
  const { t } = useTranslation('instances');
  return (
    <Stack gap="md">
      {failure ? <ErrorAlert testId="instance-form-error">{failure}</ErrorAlert> : null}
      {children}
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" loading={submitting} data-testid="instance-save">
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}

/** A System Manager creates an instance: it starts with default settings and managed lists. */
export function InstanceCreateForm() {
  const { t } = useTranslation('instances');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof createInstanceSchema>, unknown, CreateInstanceParsed>({
    resolver: zodResolver(createInstanceSchema),
    defaultValues: {
      name: '',
      organisationId: null,
      timeZoneId: browserZone && timeZones.includes(browserZone) ? browserZone : 'America/Chicago',
    },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const created = await instanceApi.create(values);
      notify('success', t('instances.created', { name: created.name }));
      await queryClient.invalidateQueries({ queryKey: instanceKeys.instances });
      await queryClient.invalidateQueries({ queryKey: instanceKeys.clinics });
      await navigate('/instances');
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ['name', 'organisationId', 'timeZoneId'] as const))
        setFailure(errorText(error));
    }
  });
  return (
    <Paper withBorder p="xl" radius="lg" maw={640}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('instances.createTitle')}>
        <FormFrame
          failure={failure}
          onCancel={() => void navigate('/instances')}
          submitting={isSubmitting}
          submitLabel={t('create')}
        >
          <Text size="sm" c="dimmed">
            {t('instances.createHelp')}
          </Text>
          <TextInput
            label={t('fields.name')}
            required
            error={translateValidation(errors.name?.message)}
            data-testid="instance-name"
            {...register('name')}
          />
          <Controller
            control={control}
            name="timeZoneId"
            render={({ field }) => (
              <Select
                label={t('fields.timeZone')}
                required
                searchable
                data={timeZones}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                allowDeselect={false}
                error={translateValidation(errors.timeZoneId?.message)}
                data-testid="instance-time-zone"
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <OrganisationSelect control={control} name="organisationId" error={errors.organisationId?.message} />
        </FormFrame>
      </form>
    </Paper>
  );
}

/** Rename an instance (the page title follows); a System Manager also moves it or switches it off. */
export function InstanceEditForm({ instance }: { instance: Instance }) {
  const { t } = useTranslation('instances');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof updateInstanceSchema>, unknown, UpdateInstanceParsed>({
    resolver: zodResolver(updateInstanceSchema),
    defaultValues: { name: instance.name, organisationId: instance.organisationId, isActive: instance.isActive },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const updated = await instanceApi.update(instance.id, values);
      notify('success', t('instances.updated', { name: updated.name }));
      await queryClient.invalidateQueries({ queryKey: instanceKeys.instances });
      await queryClient.invalidateQueries({ queryKey: instanceKeys.clinics });
      // The clinic name is the page title and the top bar's name: the session carries it.
      await queryClient.invalidateQueries({ queryKey: ['session'] });
      await navigate('/instances');
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ['name', 'organisationId'] as const)) setFailure(errorText(error));
    }
  });
  return (
    <Paper withBorder p="xl" radius="lg" maw={640}>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-label={t('instances.editTitle')}>
        <FormFrame
          failure={failure}
          onCancel={() => void navigate('/instances')}
          submitting={isSubmitting}
          submitLabel={t('common:save')}
        >
          <TextInput
            label={t('fields.name')}
            description={t('instances.nameHelp')}
            required
            error={translateValidation(errors.name?.message)}
            data-testid="instance-name"
            {...register('name')}
          />
          <TextInput
            label={t('fields.timeZone')}
            value={instance.timeZoneId ?? ''}
            readOnly
            description={t('instances.timeZoneHelp')}
          />
          {instance.canManage ? (
            <OrganisationSelect control={control} name="organisationId" error={errors.organisationId?.message} />
          ) : (
            <TextInput
              label={t('fields.organisation')}
              value={instance.organisationName ?? t('none')}
              readOnly
              description={t('instances.organisationManagerOnly')}
            />
          )}
          <Controller
            control={control}
            name="isActive"
            render={({ field }) => (
              <Switch
                label={t('fields.active')}
                description={instance.canManage ? t('instances.activeHelp') : t('instances.organisationManagerOnly')}
                checked={Boolean(field.value)}
                disabled={!instance.canManage}
                onChange={(event) => field.onChange(event.currentTarget.checked)}
                data-testid="instance-active"
              />
            )}
          />
        </FormFrame>
      </form>
    </Paper>
  );
}
