import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, MultiSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { saveOrganisationSchema, type Organisation, type SaveOrganisationParsed } from '@pathwell/contracts/instances';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { clinicApi, instanceKeys, instanceQueries } from './instances.api';

/** Create or edit a parent organisation: its name and the instances it groups. */
export function ClinicForm({ organisation }: { organisation?: Organisation }) {
  const { t } = useTranslation('instances');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const instances = useQuery(instanceQueries.list());
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof saveOrganisationSchema>, unknown, SaveOrganisationParsed>({
    resolver: zodResolver(saveOrganisationSchema),
    defaultValues: {
      name: organisation?.name ?? '',
      instanceIds: organisation?.instances.map((instance) => instance.id) ?? [],
    },
  });
  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = organisation ? await clinicApi.update(organisation.id, values) : await clinicApi.create(values);
      notify('success', t(organisation ? 'clinics.updated' : 'clinics.created', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: instanceKeys.clinics });
      await queryClient.invalidateQueries({ queryKey: instanceKeys.instances });
      await navigate('/clinics');
    } catch (error) {
      if (!applyServerFieldErrors(error, setError, ['name', 'instanceIds'] as const)) setFailure(errorText(error));
    }
  });
  const options = (instances.data ?? []).map((instance) => ({ value: instance.id, label: instance.name }));
  return (
    <Paper withBorder p="xl" radius="lg" maw={640}>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event)}
        aria-label={organisation ? t('clinics.editTitle') : t('clinics.createTitle')}
      >
        <Stack gap="md">
          {failure ? <ErrorAlert testId="clinic-form-error">{failure}</ErrorAlert> : null}
          <Text size="sm" c="dimmed">
            {t('clinics.formHelp')}
          </Text>
          <TextInput
            label={t('fields.name')}
            required
            error={translateValidation(errors.name?.message)}
            data-testid="clinic-name"
            {...register('name')}
          />
          <Controller
            control={control}
            name="instanceIds"
            render={({ field }) => (
              <MultiSelect
                label={t('fields.instances')}
                description={t('clinics.instancesHelp')}
                data={options}
                value={field.value ?? []}
                onChange={field.onChange}
                searchable
                error={translateValidation(errors.instanceIds?.message)}
                data-testid="clinic-instances"
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          {instances.isError ? <ErrorAlert>{errorText(instances.error)}</ErrorAlert> : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => void navigate('/clinics')}>
              {t('common:cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting} data-testid="clinic-save">
              {organisation ? t('common:save') : t('create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
