import { Button, Checkbox, Group, Modal, NumberInput, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPill } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { medicineKindOf } from '@pathwell/contracts/enumerations';
import type { HealthHistory } from '@pathwell/contracts/intake';
import { managedLists } from '@pathwell/contracts/managed-lists';
import type { ReconcileIntake } from '@pathwell/contracts/intake-record';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { managedListQueries } from '../managed-lists/managed-lists.api';
import { medicineKeys } from '../medicines/medicines.api';
import { intakeRecordApi } from './intake-record.api';

const medicinesList = managedLists.find((list) => list.listType === 'medicines')!;

/** One intake medication as staff map it: nothing is chosen for them (no medicine, no dose). */
type Line = { medicineId: string | null; unitsPerDose: number | string; dosesPerDay: number | string };

/**
 * The intake's medications and allergies into the record in one step (issue #24 §4): each medication the
 * patient listed is shown with their own words beside a choice from the clinic's medicines list and how
 * it is taken (so it counts in MME); the allergies are ticked into the allergy record.
 */
export function ReconcileIntakeButton({
  patientId,
  linkId,
  history,
  reconciled,
}: {
  patientId: string;
  linkId: string;
  history: HealthHistory;
  reconciled: boolean;
}) {
  const { t } = useTranslation('intakeStaff');
  const [open, setOpen] = useState(false);
  const medications = history.noMedications ? [] : (history.medications ?? []);
  const allergies = history.noKnownAllergies ? [] : (history.allergies ?? []);
  if (medications.length === 0 && allergies.length === 0) return null;
  return (
    <>
      <Button
        size="compact-sm"
        variant={reconciled ? 'subtle' : 'light'}
        leftSection={<IconPill size={14} aria-hidden />}
        onClick={() => setOpen(true)}
        data-testid="intake-reconcile"
      >
        {reconciled ? t('reconcile.again') : t('reconcile.open')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('reconcile.title')} size="xl">
        {open ? (
          <ReconcileForm
            patientId={patientId}
            linkId={linkId}
            medications={medications}
            allergies={allergies}
            onDone={() => setOpen(false)}
          />
        ) : null}
      </Modal>
    </>
  );
}

function ReconcileForm({
  patientId,
  linkId,
  medications,
  allergies,
  onDone,
}: {
  patientId: string;
  linkId: string;
  medications: NonNullable<HealthHistory['medications']>;
  allergies: NonNullable<HealthHistory['allergies']>;
  onDone: () => void;
}) {
  const { t } = useTranslation('intakeStaff');
  const queryClient = useQueryClient();
  const options = useQuery(managedListQueries.options(medicinesList));
  const medicines = (options.data ?? []).filter((item) => medicineKindOf(item.attributes ?? {}) === 'prescription');
  const [lines, setLines] = useState<Line[]>(() =>
    medications.map(() => ({ medicineId: null, unitsPerDose: '', dosesPerDay: '' })),
  );
  // The patient reported these: each starts ticked, and staff untick what should not be recorded.
  const [pickedAllergies, setPickedAllergies] = useState<number[]>(() => allergies.map((_, index) => index));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const setLine = (index: number, patch: Partial<Line>) =>
    setLines((current) => current.map((line, at) => (at === index ? { ...line, ...patch } : line)));

  const save = useMutation({
    mutationFn: (input: ReconcileIntake) => intakeRecordApi.reconcile(patientId, linkId, input),
    onSuccess: async (result) => {
      notify('success', t('reconcile.done', { medicines: result.medicines.length, allergies: result.allergies.length }));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: medicineKeys.patient(patientId) }),
        queryClient.invalidateQueries({ queryKey: ['intake', 'patient', patientId] }),
      ]);
      onDone();
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.body?.fields) setFieldErrors(failure.body.fields);
    },
  });

  const submit = () => {
    const errors: Record<string, string> = {};
    const chosen = lines.flatMap((line, index) => {
      if (!line.medicineId) return [];
      const units = Number(line.unitsPerDose);
      const doses = Number(line.dosesPerDay);
      if (line.unitsPerDose === '' || !(units > 0)) errors[`${index}.unitsPerDose`] = 'required';
      if (line.dosesPerDay === '' || !(doses > 0)) errors[`${index}.dosesPerDay`] = 'required';
      return [{ index, medicineId: line.medicineId, unitsPerDose: units, dosesPerDay: doses }];
    });
    if (chosen.length === 0 && pickedAllergies.length === 0) errors.nothing = 'required';
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    save.mutate({ medicines: chosen, allergies: pickedAllergies });
  };
  // Server field paths name the request's list position; the form's rows are the intake's.
  const lineError = (index: number, part: string) => {
    const local = fieldErrors[`${index}.${part}`];
    if (local) return translateValidation(local);
    const sent = lines.slice(0, index).filter((line) => line.medicineId).length;
    const remote = lines[index]?.medicineId ? fieldErrors[`medicines.${sent}.${part}`] : undefined;
    return remote ? translateValidation(remote) : undefined;
  };

  return (
    <Stack gap="md">
      {medications.length > 0 ? (
        <Stack gap="xs">
          <Text fw={600}>{t('reconcile.medications')}</Text>
          <Text size="sm" c="dimmed">
            {t('reconcile.medicationsHint')}
          </Text>
          {options.isError ? <ErrorAlert>{t('reconcile.listFailed')}</ErrorAlert> : null}
          {medications.map((medication, index) => (
            <Paper key={index} withBorder p="xs" data-testid="reconcile-medication">
              <Stack gap={6}>
                <Text size="sm">
                  <b>{t('reconcile.patientWrote')}:</b>{' '}
                  {[medication.name, medication.dose, medication.frequency].filter(Boolean).join(' · ')}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                  <Select
                    label={t('reconcile.medicine')}
                    placeholder={t('reconcile.notAdded')}
                    data={medicines.map((item) => ({ value: item.id, label: item.name }))}
                    value={lines[index]?.medicineId ?? null}
                    onChange={(value) => setLine(index, { medicineId: value })}
                    searchable
                    clearable
                    comboboxProps={{ withinPortal: true }}
                    error={lineError(index, 'medicineId')}
                    data-testid="reconcile-medicine-select"
                  />
                  <NumberInput
                    label={t('reconcile.unitsPerDose')}
                    min={0}
                    decimalScale={3}
                    value={lines[index]?.unitsPerDose ?? ''}
                    onChange={(value) => setLine(index, { unitsPerDose: value })}
                    disabled={!lines[index]?.medicineId}
                    error={lineError(index, 'unitsPerDose')}
                  />
                  <NumberInput
                    label={t('reconcile.dosesPerDay')}
                    min={0}
                    decimalScale={2}
                    value={lines[index]?.dosesPerDay ?? ''}
                    onChange={(value) => setLine(index, { dosesPerDay: value })}
                    disabled={!lines[index]?.medicineId}
                    error={lineError(index, 'dosesPerDay')}
                  />
                </SimpleGrid>
              </Stack>
            </Paper>
          ))}
        </Stack>
      ) : null}
      {allergies.length > 0 ? (
        <Stack gap="xs">
          <Text fw={600}>{t('reconcile.allergies')}</Text>
          {allergies.map((allergy, index) => (
            <Checkbox
              key={index}
              label={[allergy.name, allergy.reaction].filter(Boolean).join(' — ')}
              checked={pickedAllergies.includes(index)}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setPickedAllergies((current) => (on ? [...current, index] : current.filter((at) => at !== index)));
              }}
            />
          ))}
        </Stack>
      ) : null}
      {fieldErrors.nothing ? <ErrorAlert>{t('reconcile.nothing')}</ErrorAlert> : null}
      {save.isError && !(save.error instanceof ApiError && save.error.body?.fields) ? (
        <ErrorAlert>{errorText(save.error)}</ErrorAlert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('reconcile.cancel')}
        </Button>
        <Button onClick={submit} loading={save.isPending} data-testid="reconcile-save">
          {t('reconcile.save')}
        </Button>
      </Group>
    </Stack>
  );
}
