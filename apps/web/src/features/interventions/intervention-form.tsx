import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type Control, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Language } from '@pathwell/contracts/constants';
import { enumerations, type EnumOption } from '@pathwell/contracts/enumerations';
import {
  clinicalProviderTypeValues,
  DOSE_MAINTAIN,
  guidanceKinds,
  interventionInputSchema,
  interventionKinds,
  interventionSides,
  medicinesGivenText,
  type Intervention,
  type InterventionFormInfo,
  type InterventionInput,
} from '@pathwell/contracts/interventions';
import { errorText } from '../../lib/error-text';
import { applyServerFieldErrors } from '../../lib/form-errors';
import { translateValidation } from '../../lib/i18n';
import { interventionApi, interventionKeys } from './interventions.api';

type Values = InterventionInput & { levels: string[]; medicines: NonNullable<InterventionInput['medicines']> };

const emptyPump = { procedure: null, reservoirVolumeMl: null, refills: [], nextRefillDate: null };

function valuesOf(
  patientId: string,
  info: InterventionFormInfo,
  existing: Intervention | null,
  defaults: { appointmentId: string | null; today: string },
): Values {
  if (!existing) {
    return {
      patientId,
      appointmentId: defaults.appointmentId,
      kind: 'injection',
      itemId: null,
      bodyPartId: null,
      directionId: null,
      locationId: null,
      adaLocationId: null,
      side: null,
      levels: [],
      medicines: [],
      guidance: null,
      performedOn: defaults.today,
      providerId:
        info.patient.doctorId && info.providers.some((provider) => provider.id === info.patient.doctorId)
          ? info.patient.doctorId
          : null,
      providerType: null,
      completion: 1,
      outcome: '',
      followUpPlan: '',
      pump: null,
    };
  }
  return {
    patientId,
    appointmentId: existing.appointmentId,
    kind: existing.kind,
    itemId: existing.item?.id ?? null,
    bodyPartId: existing.bodyPart?.id ?? null,
    directionId: existing.direction?.id ?? null,
    locationId: existing.location?.id ?? null,
    adaLocationId: existing.adaLocation?.id ?? null,
    side: existing.side,
    levels: existing.levels,
    medicines: existing.medicines.map(({ medicineId, dose, unit, volumeMl, lot }) => ({ medicineId, dose, unit, volumeMl, lot })),
    guidance: existing.guidance,
    performedOn: existing.performedOn,
    providerId: existing.provider?.id ?? null,
    providerType: (existing.providerType as Values['providerType']) ?? null,
    completion: existing.completion,
    outcome: existing.outcome ?? '',
    followUpPlan: existing.followUpPlan ?? '',
    pump: existing.pump
      ? {
          procedure: existing.pump.procedure,
          reservoirVolumeMl: existing.pump.reservoirVolumeMl,
          nextRefillDate: existing.pump.nextRefillDate,
          refills: existing.pump.refills.map(({ painPumpMedicineId, concentration, dailyDose, doseChange, newDailyDose }) => ({
            painPumpMedicineId,
            concentration,
            dailyDose,
            doseChange,
            newDailyDose,
          })),
        }
      : null,
  };
}

const shownFields = [
  'itemId',
  'bodyPartId',
  'directionId',
  'locationId',
  'adaLocationId',
  'providerId',
  'appointmentId',
  'performedOn',
  'completion',
  'pump',
] as const satisfies readonly FieldPath<Values>[];

const numberOrNull = (value: string | number) => (typeof value === 'number' ? value : null);

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="lg" component="section">
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * The intervention form (issue #13 §1): a procedure or injection from the clinic's catalogue with where
 * and how it was done, or a pain-pump visit with refills and dose changes. Every list comes from the
 * one `interventionforminfo` call.
 */
export function InterventionForm({
  patientId,
  info,
  existing,
  defaults,
  onSaved,
  onCancel,
}: {
  patientId: string;
  info: InterventionFormInfo;
  existing: Intervention | null;
  defaults: { appointmentId: string | null; today: string };
  onSaved: (saved: Intervention) => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('interventions');
  const language = (i18n.language === 'es' ? 'es' : 'en') as Language;
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    resolver: zodResolver(interventionInputSchema) as never,
    defaultValues: valuesOf(patientId, info, existing, defaults),
  });
  const { control, register, handleSubmit, setError, setValue, formState } = form;
  const kind = useWatch({ control, name: 'kind' });
  const medicines = useFieldArray({ control, name: 'medicines' });
  const refills = useFieldArray({ control, name: 'pump.refills' as 'medicines' });
  const refillValues = useWatch({ control, name: 'pump.refills' }) ?? [];

  const save = useMutation({
    mutationFn: (values: InterventionInput) =>
      existing ? interventionApi.update(existing.id, values) : interventionApi.create(values),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: interventionKeys.all });
      onSaved(saved);
    },
    onError: (failure) => {
      const medicineFields = medicines.fields.flatMap((_, index) =>
        (['medicineId', 'dose', 'unit', 'volumeMl', 'lot'] as const).map((key) => `medicines.${index}.${key}` as const),
      );
      applyServerFieldErrors(failure, setError, [...shownFields, ...medicineFields]);
    },
  });

  const error = (name: string) => {
    const message = name
      .split('.')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], formState.errors) as
      { message?: string } | undefined;
    return translateValidation(message?.message);
  };
  const options = (rows: { id: string; name: string }[]) => rows.map((row) => ({ value: row.id, label: row.name }));
  const enumOptions = (rows: readonly EnumOption[]) =>
    rows.map((row) => ({ value: String(row.value), label: row.label[language] }));
  const items = kind === 'procedure' ? info.procedures : info.injections;

  return (
    <form
      noValidate
      onSubmit={handleSubmit((values) => save.mutate(values as InterventionInput))}
      aria-label={t('form.title')}
      data-testid="intervention-form"
    >
      <Stack gap="md">
        <Section title={t('form.what')}>
          <Controller
            control={control}
            name="kind"
            render={({ field }) => (
              <SegmentedControl
                aria-label={t('form.kind')}
                value={field.value}
                onChange={(value) => {
                  field.onChange(value);
                  setValue('itemId', null);
                  setValue('pump', value === 'pump' ? emptyPump : null);
                }}
                data={interventionKinds.map((value) => ({ value, label: t(`kinds.${value}`) }))}
              />
            )}
          />
          {kind !== 'pump' ? (
            <Controller
              control={control}
              name="itemId"
              render={({ field }) => (
                <Select
                  label={t(kind === 'procedure' ? 'form.procedure' : 'form.injection')}
                  required
                  searchable
                  data={items.map((item) => ({
                    value: item.id,
                    label: item.cptCode ? `${item.name} (${item.cptCode})` : item.name,
                  }))}
                  value={field.value ?? null}
                  onChange={field.onChange}
                  error={error('itemId')}
                  nothingFoundMessage={t('form.noneInList')}
                />
              )}
            />
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            <TextInput
              type="date"
              label={t('form.performedOn')}
              required
              {...register('performedOn')}
              error={error('performedOn')}
            />
            <Controller
              control={control}
              name="appointmentId"
              render={({ field }) => (
                <Select
                  label={t('form.visit')}
                  clearable
                  data={info.appointments.map((visit) => ({
                    value: visit.id,
                    label: new Date(visit.startsAt).toLocaleDateString(language),
                  }))}
                  value={field.value ?? null}
                  onChange={field.onChange}
                  error={error('appointmentId')}
                />
              )}
            />
            <Controller
              control={control}
              name="completion"
              render={({ field }) => (
                <Select
                  label={t('form.completion')}
                  data={enumOptions(enumerations.completion)}
                  value={String(field.value ?? 1)}
                  onChange={(value) => field.onChange(Number(value ?? 1))}
                  allowDeselect={false}
                />
              )}
            />
            <Controller
              control={control}
              name="providerId"
              render={({ field }) => (
                <Select
                  label={t('form.provider')}
                  clearable
                  data={options(info.providers)}
                  value={field.value ?? null}
                  onChange={field.onChange}
                  error={error('providerId')}
                />
              )}
            />
            <Controller
              control={control}
              name="providerType"
              render={({ field }) => (
                <Select
                  label={t('form.providerType')}
                  clearable
                  data={clinicalProviderTypeValues.map((value) => ({
                    value,
                    label: enumerations.clinicalProviderTypes.find((row) => row.value === value)?.label[language] ?? value,
                  }))}
                  value={field.value ?? null}
                  onChange={field.onChange}
                  description={t('form.providerTypeHelp')}
                />
              )}
            />
          </SimpleGrid>
        </Section>

        {kind !== 'pump' ? (
          <Section title={t('form.where')}>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {(
                [
                  ['bodyPartId', info.bodyParts, 'form.bodyPart'],
                  ['directionId', info.directions, 'form.direction'],
                  ['locationId', info.locations, 'form.location'],
                  ['adaLocationId', info.adaLocations, 'form.adaLocation'],
                ] as const
              ).map(([name, rows, label]) => (
                <Controller
                  key={name}
                  control={control}
                  name={name}
                  render={({ field }) => (
                    <Select
                      label={t(label)}
                      clearable
                      searchable
                      data={options(rows)}
                      value={field.value ?? null}
                      onChange={field.onChange}
                      error={error(name)}
                    />
                  )}
                />
              ))}
              <Controller
                control={control}
                name="side"
                render={({ field }) => (
                  <Select
                    label={t('form.side')}
                    clearable
                    data={interventionSides.map((value) => ({ value, label: t(`sides.${value}`) }))}
                    value={field.value ?? null}
                    onChange={field.onChange}
                  />
                )}
              />
              <Controller
                control={control}
                name="guidance"
                render={({ field }) => (
                  <Select
                    label={t('form.guidance')}
                    clearable
                    data={guidanceKinds.map((value) => ({ value, label: t(`guidance.${value}`) }))}
                    value={field.value ?? null}
                    onChange={field.onChange}
                  />
                )}
              />
            </SimpleGrid>
            <Controller
              control={control}
              name="levels"
              render={({ field }) => (
                <TagsInput
                  label={t('form.levels')}
                  description={t('form.levelsHelp')}
                  value={field.value}
                  onChange={(value) => field.onChange(value.map((level) => level.toUpperCase()))}
                  error={error('levels') ?? formState.errors.levels?.find?.((entry) => entry)?.message?.toString()}
                  maxTags={10}
                  splitChars={[',', ' ']}
                />
              )}
            />
            <Stack gap="xs">
              <Group justify="space-between">
                <Text fw={600} size="sm">
                  {t('form.medicines')}
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconPlus size={14} aria-hidden />}
                  // No dose is assumed: the provider types what was given.
                  onClick={() =>
                    medicines.append({
                      medicineId: '',
                      dose: undefined as unknown as number,
                      unit: 'mg',
                      volumeMl: null,
                      lot: null,
                    })
                  }
                  disabled={info.medicines.length === 0}
                >
                  {t('form.addMedicine')}
                </Button>
              </Group>
              {info.medicines.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('form.noMedicines')}
                </Text>
              ) : null}
              {medicines.fields.map((row, index) => (
                <Group key={row.id} align="flex-end" wrap="wrap" gap="xs" data-testid="medicine-given">
                  <Controller
                    control={control}
                    name={`medicines.${index}.medicineId`}
                    render={({ field }) => (
                      <Select
                        label={t('form.medicine')}
                        searchable
                        data={options(info.medicines)}
                        value={field.value || null}
                        onChange={(value) => {
                          field.onChange(value ?? '');
                          // A concentration in mg/mL gives doses in mg.
                          const unit = info.medicines.find((medicine) => medicine.id === value)?.unit?.split('/')[0];
                          if (unit && unit !== '%') setValue(`medicines.${index}.unit`, unit);
                        }}
                        error={error(`medicines.${index}.medicineId`)}
                        style={{ flex: '2 1 260px' }}
                      />
                    )}
                  />
                  <Controller
                    control={control}
                    name={`medicines.${index}.dose`}
                    render={({ field }) => (
                      <NumberInput
                        label={t('form.dose')}
                        required
                        min={0}
                        decimalScale={3}
                        value={field.value ?? ''}
                        onChange={(value) => field.onChange(numberOrNull(value))}
                        error={error(`medicines.${index}.dose`)}
                        style={{ flex: '1 1 90px' }}
                      />
                    )}
                  />
                  <TextInput label={t('form.unit')} {...register(`medicines.${index}.unit`)} style={{ width: 80 }} />
                  <Controller
                    control={control}
                    name={`medicines.${index}.volumeMl`}
                    render={({ field }) => (
                      <NumberInput
                        label={t('form.volume')}
                        min={0}
                        decimalScale={2}
                        value={field.value ?? ''}
                        onChange={(value) => field.onChange(numberOrNull(value))}
                        error={error(`medicines.${index}.volumeMl`)}
                        style={{ flex: '1 1 90px' }}
                      />
                    )}
                  />
                  <TextInput
                    label={t('form.lot')}
                    maxLength={40}
                    {...register(`medicines.${index}.lot`)}
                    error={error(`medicines.${index}.lot`)}
                    style={{ flex: '1 1 110px' }}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('form.removeMedicine')}
                    onClick={() => medicines.remove(index)}
                    mb={4}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
              <MedicinesInNote info={info} control={control} />
            </Stack>
          </Section>
        ) : (
          <Section title={t('form.pump')}>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Controller
                control={control}
                name="pump.procedure"
                render={({ field }) => (
                  <Select
                    label={t('form.pumpProcedure')}
                    clearable
                    placeholder={t('form.refillOnly')}
                    data={enumOptions(enumerations.pumpProcedures)}
                    value={field.value ? String(field.value) : null}
                    onChange={(value) => field.onChange(value ? Number(value) : null)}
                  />
                )}
              />
              <Controller
                control={control}
                name="pump.reservoirVolumeMl"
                render={({ field }) => (
                  <NumberInput
                    label={t('form.reservoirVolume')}
                    min={0}
                    max={100}
                    decimalScale={1}
                    value={field.value ?? ''}
                    onChange={(value) => field.onChange(numberOrNull(value))}
                    error={error('pump.reservoirVolumeMl')}
                  />
                )}
              />
              <Controller
                control={control}
                name="pump.nextRefillDate"
                render={({ field }) => (
                  <TextInput
                    type="date"
                    label={t('form.nextRefill')}
                    value={field.value ?? ''}
                    onChange={(event) => field.onChange(event.currentTarget.value || null)}
                    error={error('pump.nextRefillDate')}
                  />
                )}
              />
            </SimpleGrid>
            <Group justify="space-between">
              <Text fw={600} size="sm">
                {t('form.refills')}
              </Text>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} aria-hidden />}
                disabled={info.painPumpMedicines.length === 0}
                onClick={() =>
                  (refills.append as (value: unknown) => void)({
                    painPumpMedicineId: '',
                    concentration: 0,
                    dailyDose: null,
                    doseChange: DOSE_MAINTAIN,
                    newDailyDose: null,
                  })
                }
              >
                {t('form.addRefill')}
              </Button>
            </Group>
            {info.painPumpMedicines.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('form.noPumpMedicines')}
              </Text>
            ) : null}
            {refills.fields.map((row, index) => {
              const prefix = `pump.refills.${index}` as const;
              const medicine = info.painPumpMedicines.find((entry) => entry.id === refillValues[index]?.painPumpMedicineId);
              const doseUnit = medicine?.unit === 'mcg/mL' ? 'mcg/day' : 'mg/day';
              return (
                <Paper key={row.id} withBorder p="sm" radius="md" data-testid="pump-refill">
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
                    <Controller
                      control={control}
                      name={`${prefix}.painPumpMedicineId`}
                      render={({ field }) => (
                        <Select
                          label={t('form.pumpMedicine')}
                          data={options(info.painPumpMedicines)}
                          value={field.value || null}
                          onChange={(value) => {
                            field.onChange(value ?? '');
                            const chosen = info.painPumpMedicines.find((entry) => entry.id === value);
                            if (chosen?.concentration) setValue(`${prefix}.concentration`, chosen.concentration);
                          }}
                          error={error(`${prefix}.painPumpMedicineId`)}
                        />
                      )}
                    />
                    <Controller
                      control={control}
                      name={`${prefix}.concentration`}
                      render={({ field }) => (
                        <NumberInput
                          label={t('form.concentration', { unit: medicine?.unit ?? '' })}
                          min={0}
                          decimalScale={3}
                          value={field.value}
                          onChange={(value) => field.onChange(numberOrNull(value))}
                          error={error(`${prefix}.concentration`)}
                        />
                      )}
                    />
                    <Controller
                      control={control}
                      name={`${prefix}.dailyDose`}
                      render={({ field }) => (
                        <NumberInput
                          label={t('form.dailyDose', { unit: doseUnit })}
                          min={0}
                          decimalScale={4}
                          value={field.value ?? ''}
                          onChange={(value) => field.onChange(numberOrNull(value))}
                        />
                      )}
                    />
                    <Controller
                      control={control}
                      name={`${prefix}.doseChange`}
                      render={({ field }) => (
                        <Select
                          label={t('form.doseChange')}
                          data={enumOptions(enumerations.doseChanges)}
                          value={String(field.value)}
                          onChange={(value) => field.onChange(Number(value ?? DOSE_MAINTAIN))}
                          allowDeselect={false}
                        />
                      )}
                    />
                    <Controller
                      control={control}
                      name={`${prefix}.newDailyDose`}
                      render={({ field }) => (
                        <NumberInput
                          label={t('form.newDailyDose', { unit: doseUnit })}
                          min={0}
                          decimalScale={4}
                          value={field.value ?? ''}
                          onChange={(value) => field.onChange(numberOrNull(value))}
                          error={error(`${prefix}.newDailyDose`)}
                          disabled={refillValues[index]?.doseChange === DOSE_MAINTAIN}
                        />
                      )}
                    />
                  </SimpleGrid>
                  <Group justify="flex-end" mt="xs">
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      onClick={() => refills.remove(index)}
                    >
                      {t('form.removeRefill')}
                    </Button>
                  </Group>
                </Paper>
              );
            })}
          </Section>
        )}

        <Section title={t('form.afterwards')}>
          <Textarea label={t('form.outcome')} rows={3} maxLength={4000} {...register('outcome')} />
          <Textarea label={t('form.followUpPlan')} rows={3} maxLength={4000} {...register('followUpPlan')} />
        </Section>

        {save.isError ? (
          <Alert color="red" role="alert" data-testid="intervention-save-error">
            {errorText(save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {existing ? t('form.saveChanges') : t('form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What the note will say, in the record's one wording (decision 0062), so nobody writes it twice. */
function MedicinesInNote({ info, control }: { info: InterventionFormInfo; control: Control<Values> }) {
  const { t } = useTranslation('interventions');
  const rows = useWatch({ control, name: 'medicines' }) ?? [];
  const complete = rows.filter((row) => row.medicineId && typeof row.dose === 'number' && row.dose > 0);
  if (complete.length === 0) return null;
  const text = medicinesGivenText(
    complete.map((row) => ({
      name: info.medicines.find((medicine) => medicine.id === row.medicineId)?.name ?? '',
      dose: row.dose,
      unit: row.unit ?? '',
      volumeMl: row.volumeMl ?? null,
      lot: row.lot?.trim() || null,
    })),
  );
  return (
    <Text size="sm" c="dimmed" data-testid="medicines-in-note">
      {t('form.inNote', { text })}
    </Text>
  );
}
