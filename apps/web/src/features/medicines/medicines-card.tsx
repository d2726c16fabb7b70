import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Group, Loader, Modal, NumberInput, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconPill, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { medicineKindOf } from '@pathwell/contracts/enumerations';
import { managedLists } from '@pathwell/contracts/managed-lists';
import {
  calculateMme,
  patientMedicineInputSchema,
  type MmeTotals,
  type PatientMedicine,
  type PatientMedicineInput,
} from '@pathwell/contracts/mme';
import { ErrorAlert } from '../../components/error-alert';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { managedListQueries } from '../managed-lists/managed-lists.api';
import { medicineApi, medicineKeys, medicineQueries } from './medicines.api';
import { AllergiesList } from './allergies-list';

const medicinesList = managedLists.find((list) => list.listType === 'medicines')!;

function useNumber() {
  const { i18n } = useTranslation();
  return (value: number) => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 }).format(value);
}

/**
 * The patient's current medicines with each one's daily MME and the total (decision 0039): the total is
 * flagged at 50 and 90 MME/day and when an opioid is taken with a benzodiazepine.
 */
export function MedicinesCard({ patientId }: { patientId: string }) {
  const { t } = useTranslation('medicines');
  const current = useQuery(medicineQueries.current(patientId));
  const queryClient = useQueryClient();
  const number = useNumber();
  const [editing, setEditing] = useState<PatientMedicine | 'new' | null>(null);
  const stop = useMutation({
    mutationFn: (row: PatientMedicine) => medicineApi.stop(patientId, row.id),
    onSuccess: (row) => {
      notify('success', t('stopped', { name: row.name }));
      void queryClient.invalidateQueries({ queryKey: medicineKeys.patient(patientId) });
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  const rows = current.data;
  return (
    <Paper withBorder p="md" data-testid="patient-medicines">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('title')}
          </Title>
          <Button size="xs" variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        </Group>
        {current.isPending ? <Loader size="sm" aria-label={t('loading')} /> : null}
        {current.isError ? <ErrorAlert>{t('loadFailed')}</ErrorAlert> : null}
        {rows && rows.length > 0 ? <MmeTotal totals={totalsOf(rows)} /> : null}
        {rows && rows.length === 0 ? <Text c="dimmed">{t('none')}</Text> : null}
        {rows?.map((row) => (
          <Group key={row.id} justify="space-between" wrap="nowrap" align="flex-start" data-testid="medicine-row">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap={6} wrap="wrap">
                <Text fw={600} size="sm">
                  {row.name}
                </Text>
                {row.isBenzodiazepine ? (
                  <Badge size="xs" color="grape" variant="light">
                    {t('benzodiazepine')}
                  </Badge>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed">
                {row.unit === 'mcg/h'
                  ? t('howTakenPatch', { units: number(row.unitsPerDose) })
                  : t('howTaken', { units: number(row.unitsPerDose), doses: number(row.dosesPerDay) })}
                {' · '}
                {row.dailyMme !== null ? t('mmePerDay', { value: number(row.dailyMme) }) : t(`notes.${row.note ?? 'notOpioid'}`)}
              </Text>
            </Stack>
            <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
              <Button
                size="compact-sm"
                variant="subtle"
                aria-label={t('changeOf', { name: row.name })}
                onClick={() => setEditing(row)}
              >
                {t('change')}
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                aria-label={t('stopOf', { name: row.name })}
                loading={stop.isPending && stop.variables?.id === row.id}
                onClick={() => stop.mutate(row)}
              >
                {t('stop')}
              </Button>
            </Group>
          </Group>
        ))}
        <AllergiesList patientId={patientId} />
        {rows && rows.length > 0 ? (
          <Text size="xs" c="dimmed">
            {t('source')}
          </Text>
        ) : null}
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('form.addTitle') : editing ? t('form.changeTitle', { name: editing.name }) : ''}
      >
        {editing ? (
          <MedicineForm patientId={patientId} row={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
        ) : null}
      </Modal>
    </Paper>
  );
}

/**
 * The same calculation as `POST /api/patients/mme` (contracts/mme.ts) on the rows just read, so opening the
 * dashboard costs one request and one audit entry, not two.
 */
function totalsOf(rows: PatientMedicine[]): MmeTotals {
  return calculateMme(rows);
}

function MmeTotal({ totals }: { totals: MmeTotals }) {
  const { t } = useTranslation('medicines');
  const number = useNumber();
  const { flags } = totals;
  return (
    <Paper bg="var(--mantine-color-gray-light)" p="sm" radius="sm" data-testid="mme-total">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('total')}
          </Text>
          <Text fw={700} size="xl" data-testid="mme-total-value">
            {t('mmePerDay', { value: number(totals.totalMme) })}
          </Text>
        </Stack>
        <Group gap={6} wrap="wrap">
          {flags.atOrAbove90 ? (
            <Badge color="red" data-testid="mme-flag-90">
              {t('flags.atOrAbove90')}
            </Badge>
          ) : flags.atOrAbove50 ? (
            <Badge color="orange" data-testid="mme-flag-50">
              {t('flags.atOrAbove50')}
            </Badge>
          ) : null}
          {flags.withBenzodiazepine ? (
            <Badge color="grape" data-testid="mme-flag-benzo">
              {t('flags.withBenzodiazepine')}
            </Badge>
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
}

type FormValues = { medicineId: string; unitsPerDose: number | string; dosesPerDay: number | string };

function MedicineForm({ patientId, row, onClose }: { patientId: string; row: PatientMedicine | null; onClose: () => void }) {
  const { t } = useTranslation('medicines');
  const queryClient = useQueryClient();
  const number = useNumber();
  const options = useQuery(managedListQueries.options(medicinesList));
  const [problem, setProblem] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues, unknown, PatientMedicineInput>({
    resolver: zodResolver(patientMedicineInputSchema) as unknown as Resolver<FormValues, unknown, PatientMedicineInput>,
    defaultValues: {
      medicineId: row?.medicineId ?? '',
      unitsPerDose: row?.unitsPerDose ?? 1,
      dosesPerDay: row?.dosesPerDay ?? 1,
    },
  });
  // Injectables on the same list are given in procedures, not taken: they are not offered here.
  const medicines = (options.data ?? []).filter((item) => medicineKindOf(item.attributes ?? {}) === 'prescription');
  const chosenId = watch('medicineId');
  const chosen = medicines.find((item) => item.id === chosenId);
  const attributes: Record<string, unknown> = chosen?.attributes ?? (row ? { ...row } : {});
  const isPatch = attributes.unit === 'mcg/h';
  const units = Number(watch('unitsPerDose'));
  const doses = Number(watch('dosesPerDay'));
  const preview =
    chosen || row
      ? calculateMme([
          {
            name: chosen?.name ?? row?.name ?? null,
            strength: typeof attributes.strength === 'number' ? attributes.strength : null,
            unit: typeof attributes.unit === 'string' ? attributes.unit : null,
            route: typeof attributes.route === 'string' ? attributes.route : null,
            isOpioid: attributes.isOpioid === true,
            mmeNotConverted: attributes.mmeNotConverted === true,
            mmeConversionFactor: typeof attributes.mmeConversionFactor === 'number' ? attributes.mmeConversionFactor : null,
            unitsPerDose: Number.isFinite(units) ? units : 0,
            dosesPerDay: Number.isFinite(doses) ? doses : 0,
          },
        ]).lines[0]
      : undefined;

  const submit = handleSubmit(async (values) => {
    setProblem(null);
    try {
      if (row)
        await medicineApi.change(patientId, row.id, { unitsPerDose: values.unitsPerDose, dosesPerDay: values.dosesPerDay });
      else await medicineApi.add(patientId, values);
      await queryClient.invalidateQueries({ queryKey: medicineKeys.patient(patientId) });
      onClose();
    } catch (failure) {
      if (!applyServerFieldErrors<FormValues>(failure, setError, ['medicineId', 'unitsPerDose', 'dosesPerDay'])) {
        setProblem(errorText(failure));
      }
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {!row && options.isSuccess && medicines.length === 0 ? <Text size="sm">{t('form.noMedicines')}</Text> : null}
        <Controller
          control={control}
          name="medicineId"
          render={({ field }) => (
            <Select
              label={t('form.medicine')}
              placeholder={t('form.choose')}
              required
              searchable
              disabled={row !== null}
              data={
                row
                  ? [{ value: row.medicineId, label: row.name }]
                  : medicines.map((item) => ({ value: item.id, label: item.name }))
              }
              value={field.value || null}
              onChange={(value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              ref={field.ref}
              leftSection={<IconPill size={16} aria-hidden />}
              error={translateValidation(errors.medicineId?.message)}
              data-testid="medicine-select"
            />
          )}
        />
        <Group grow align="flex-start">
          <Controller
            control={control}
            name="unitsPerDose"
            render={({ field }) => (
              <NumberInput
                label={t('form.unitsPerDose')}
                description={t('form.unitsPerDoseHelp')}
                required
                min={0}
                max={100}
                decimalScale={3}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={translateValidation(errors.unitsPerDose?.message)}
              />
            )}
          />
          <Controller
            control={control}
            name="dosesPerDay"
            render={({ field }) => (
              <NumberInput
                label={t('form.dosesPerDay')}
                description={isPatch ? t('form.patchHelp') : t('form.dosesPerDayHelp')}
                required
                min={0}
                max={24}
                decimalScale={2}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={translateValidation(errors.dosesPerDay?.message)}
              />
            )}
          />
        </Group>
        {preview ? (
          <Text size="sm" data-testid="medicine-preview">
            {preview.dailyMme !== null
              ? t('form.preview', { value: number(preview.dailyMme) })
              : preview.note === 'notConverted' || preview.note === 'transdermalUnit'
                ? t(`notes.${preview.note}`)
                : t('form.previewNone')}
          </Text>
        ) : null}
        {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={isSubmitting}>
            {t('form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
