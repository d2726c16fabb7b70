import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NumberInput, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  appointmentFilterDefaults,
  appointmentFilterSchema,
  appointmentStatusCodes,
  DateFilterPreset,
  PAIN_SCORE_MAX,
  PAIN_SCORE_MIN,
  type AppointmentFilter,
  type AppointmentFilterInput,
} from '@pathwell/contracts/appointments';
import { translateValidation } from '../../lib/i18n';
import { appointmentQueries } from './appointments.api';

/** The order a person thinks in, not the enumeration's numbering. */
const presetOrder = [1, 10, 2, 3, 4, 5, 6, 7, 8, 9, 11] as const;

type Values = AppointmentFilterInput;

/**
 * Section 3 "Appointment list filter" with the section 9 defaults (today, pain 0–10, any body
 * location and status), validated with the contract the server uses.
 */
export function AppointmentFilters({ onApply }: { onApply: (filter: AppointmentFilterInput) => void }) {
  const { t } = useTranslation('appointments');
  const bodyLocations = useQuery(appointmentQueries.bodyLocations());
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values, unknown, AppointmentFilter>({
    resolver: zodResolver(appointmentFilterSchema),
    defaultValues: appointmentFilterDefaults,
  });
  const dateFilter = Number(useWatch({ control, name: 'dateFilter' }));

  const apply = handleSubmit((filter) => {
    const { paginationFilter: _paging, ...fields } = filter;
    onApply(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as AppointmentFilterInput);
  });
  const clear = () => {
    reset(appointmentFilterDefaults);
    onApply({ ...appointmentFilterDefaults });
  };

  return (
    <Paper withBorder radius="lg" p="md" component="form" onSubmit={apply} aria-label={t('filters.label')} noValidate>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" verticalSpacing="sm">
        <Controller
          control={control}
          name="dateFilter"
          render={({ field }) => (
            <Select
              label={t('filters.dateFilter')}
              data={presetOrder.map((value) => ({ value: String(value), label: t(`filters.presets.${value}`) }))}
              value={String(field.value ?? DateFilterPreset.Today)}
              onChange={(value) => field.onChange(Number(value ?? DateFilterPreset.Today))}
              onBlur={field.onBlur}
              allowDeselect={false}
              error={translateValidation(errors.dateFilter?.message)}
            />
          )}
        />
        {dateFilter === DateFilterPreset.CustomRange ? (
          <>
            <TextInput
              label={t('filters.startDate')}
              placeholder={t('filters.datePlaceholder')}
              inputMode="numeric"
              maxLength={10}
              error={translateValidation(errors.startDate?.message)}
              {...register('startDate')}
            />
            <TextInput
              label={t('filters.endDate')}
              placeholder={t('filters.datePlaceholder')}
              inputMode="numeric"
              maxLength={10}
              error={translateValidation(errors.endDate?.message)}
              {...register('endDate')}
            />
          </>
        ) : null}
        {dateFilter === DateFilterPreset.FixedDate ? (
          <TextInput
            label={t('filters.fixedDate')}
            placeholder={t('filters.datePlaceholder')}
            inputMode="numeric"
            maxLength={10}
            error={translateValidation(errors.fixedDate?.message)}
            {...register('fixedDate')}
          />
        ) : null}
        <Group grow gap="xs" align="flex-start">
          {(['painScoreMin', 'painScoreMax'] as const).map((name) => (
            <Controller
              key={name}
              control={control}
              name={name}
              render={({ field }) => (
                <NumberInput
                  label={t(name === 'painScoreMin' ? 'filters.painMin' : 'filters.painMax')}
                  min={PAIN_SCORE_MIN}
                  max={PAIN_SCORE_MAX}
                  clampBehavior="strict"
                  allowDecimal={false}
                  value={field.value as number | undefined}
                  onChange={(value) => field.onChange(value === '' ? undefined : Number(value))}
                  onBlur={field.onBlur}
                  error={translateValidation(errors[name]?.message)}
                />
              )}
            />
          ))}
        </Group>
        <Controller
          control={control}
          name="bodyLocation"
          render={({ field }) => (
            <Select
              label={t('filters.bodyLocation')}
              placeholder={t('filters.anyBodyLocation')}
              data={bodyLocations.data ?? []}
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              searchable
              clearable
            />
          )}
        />
        <Controller
          control={control}
          name="status"
          render={({ field }) => (
            <Select
              label={t('filters.status')}
              placeholder={t('filters.anyStatus')}
              data={appointmentStatusCodes.map((code) => ({ value: String(code), label: t(`status.${code}`) }))}
              value={field.value ? String(field.value) : null}
              onChange={(value) => field.onChange(value ? Number(value) : '')}
              onBlur={field.onBlur}
              clearable
            />
          )}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="sm" gap="xs">
        <Button variant="subtle" color="gray" leftSection={<IconX size={16} aria-hidden />} onClick={clear}>
          {t('filters.clear')}
        </Button>
        <Button type="submit" leftSection={<IconFilter size={16} aria-hidden />}>
          {t('filters.apply')}
        </Button>
      </Group>
    </Paper>
  );
}
