import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { appointmentReasons, createAppointmentSchema, type CreateAppointmentInput } from '@pathwell/contracts/appointments';
import { isValidMdyDate } from '@pathwell/contracts/validation';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { instantOfClinicTime } from '@pathwell/contracts/clinic-time';
import { clinicToday } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { getDoctorId } from '../../lib/session-storage';
import { appointmentApi, appointmentKeys, appointmentQueries } from './appointments.api';
import { PatientPicker } from './patient-picker';

/** The contract's appointment with the start split into the clinic's date and time, as staff type it. */
const formSchema = createAppointmentSchema.omit({ startsAt: true }).extend({
  date: z.string().trim().refine(isValidMdyDate, 'dateInvalid'),
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'required'),
});
type Values = z.input<typeof formSchema>;
type Parsed = z.output<typeof formSchema>;

/** MM/DD/YYYY and HH:mm on the clinic's clock → the UTC instant the server stores. */
export function clinicInstant(date: string, time: string, timeZone: string): string {
  const [month, day, year] = date.split('/').map(Number) as [number, number, number];
  const [hours, minutes] = time.split(':').map(Number) as [number, number];
  return instantOfClinicTime(year, month, day, timeZone, hours, minutes).toISOString();
}

export function AppointmentForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('appointments');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const queryClient = useQueryClient();
  const doctors = useQuery(appointmentQueries.doctors());
  const rooms = useQuery(appointmentQueries.rooms());
  const types = useQuery(appointmentQueries.appointmentTypes());
  const ownId = session.user.role === 'Doctor' ? session.user.id : getDoctorId();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Parsed>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      patientId: '',
      doctorId: ownId ?? '',
      appointmentTypeId: null,
      roomId: null,
      date: clinicToday(timeZone),
      time: '09:00',
      durationMinutes: 30,
      reason: null,
      notes: '',
      painScore: '',
    },
  });
  const saving = useMutation({
    mutationFn: ({ date, time, ...rest }: Parsed) =>
      appointmentApi.schedule({ ...rest, startsAt: clinicInstant(date, time, timeZone) } as CreateAppointmentInput),
    onSuccess: () => {
      notify('success', t('schedule.saved'));
      void queryClient.invalidateQueries({ queryKey: appointmentKeys.all });
      onDone();
    },
    onError: (failure) => {
      const fields = (failure as { fields?: Record<string, string> }).fields ?? {};
      for (const [name, key] of Object.entries(fields)) {
        const field = name === 'startsAt' ? 'date' : name;
        if (field in formSchema.shape) setError(field as keyof Values, { message: key });
      }
    },
  });
  const selectOf = (
    name: 'doctorId' | 'roomId' | 'appointmentTypeId',
    label: string,
    data: { value: string; label: string }[],
  ) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          data={data}
          value={field.value || null}
          onChange={(value) => field.onChange(value ?? (name === 'doctorId' ? '' : null))}
          onBlur={field.onBlur}
          searchable
          clearable={name !== 'doctorId'}
          required={name === 'doctorId'}
          error={translateValidation(errors[name]?.message)}
          comboboxProps={{ withinPortal: false }}
        />
      )}
    />
  );

  return (
    <form noValidate onSubmit={handleSubmit((values) => saving.mutate(values))}>
      <Stack gap="sm">
        {saving.isError ? <ErrorAlert testId="schedule-error">{errorText(saving.error)}</ErrorAlert> : null}
        <Controller
          control={control}
          name="patientId"
          render={({ field }) => (
            <PatientPicker
              value={field.value || null}
              onChange={(id) => field.onChange(id ?? '')}
              error={translateValidation(errors.patientId?.message)}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {selectOf('doctorId', t('schedule.doctor'), doctors.data ?? [])}
          {selectOf('appointmentTypeId', t('schedule.type'), types.data ?? [])}
          {selectOf('roomId', t('schedule.room'), rooms.data ?? [])}
          <Controller
            control={control}
            name="reason"
            render={({ field }) => (
              <Select
                label={t('schedule.reason')}
                data={appointmentReasons.map((reason) => ({ value: reason, label: t(`schedule.reasons.${reason}`) }))}
                value={field.value || null}
                onChange={field.onChange}
                clearable
                comboboxProps={{ withinPortal: false }}
              />
            )}
          />
          <TextInput
            label={t('schedule.date')}
            placeholder={t('filters.datePlaceholder')}
            inputMode="numeric"
            maxLength={10}
            required
            error={translateValidation(errors.date?.message)}
            {...register('date')}
          />
          <TextInput
            type="time"
            label={t('schedule.time')}
            required
            error={translateValidation(errors.time?.message)}
            {...register('time')}
          />
          <Controller
            control={control}
            name="durationMinutes"
            render={({ field }) => (
              <NumberInput
                label={t('schedule.duration')}
                min={5}
                max={480}
                step={5}
                allowDecimal={false}
                value={field.value as number | undefined}
                onChange={(value) => field.onChange(value === '' ? undefined : Number(value))}
                error={translateValidation(errors.durationMinutes?.message)}
              />
            )}
          />
          <Controller
            control={control}
            name="painScore"
            render={({ field }) => (
              <NumberInput
                label={t('schedule.painScore')}
                min={0}
                max={10}
                allowDecimal={false}
                value={field.value === null || field.value === undefined ? '' : (field.value as number | string)}
                onChange={(value) => field.onChange(value === '' ? '' : Number(value))}
                error={translateValidation(errors.painScore?.message)}
              />
            )}
          />
        </SimpleGrid>
        <Textarea
          label={t('schedule.notes')}
          rows={2}
          error={translateValidation(errors.notes?.message)}
          {...register('notes')}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="subtle" color="gray" onClick={onDone}>
            {t('schedule.cancel')}
          </Button>
          <Button type="submit" loading={saving.isPending}>
            {t('schedule.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
