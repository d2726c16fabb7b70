import { Alert, Button, Checkbox, Group, List, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconClipboardList, IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { enumerations } from '@pathwell/contracts/enumerations';
import type { AssignedPro } from '@pathwell/contracts/form-responses';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { OUTCOME_FORM_CODES, outcomeFormName } from './questionnaire-text';
import { questionnaireApi, questionnaireKeys, questionnaireQueries } from './questionnaires.api';
import { useFormAvailability } from './form-availability';

type AppointmentRef = { id: string; startsAt: string; patientName: string };

/** Staff see both names: the one in their language first, the other language after it. */
function AssignedForm({
  appointment,
  assigned,
  onClose,
}: {
  appointment: AppointmentRef;
  assigned: AssignedPro;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('questionnaires');
  const queryClient = useQueryClient();
  const [checked, setChecked] = useState<string[]>(() => assigned.formCodes.map(String));
  const availability = useFormAvailability();
  const saving = useMutation({
    mutationFn: () =>
      questionnaireApi.saveAssignedPro(
        appointment.id,
        OUTCOME_FORM_CODES.filter((code) => checked.includes(String(code))),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(questionnaireKeys.assignedPros(appointment.id), saved);
      void queryClient.invalidateQueries({ queryKey: questionnaireKeys.unfilled(appointment.id) });
      notify('success', t('assigned.saved'));
      onClose();
    },
    onError: (failure) => notify('error', errorText(failure)),
  });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        saving.mutate();
      }}
    >
      <Stack gap="sm">
        {assigned.isDefault ? (
          <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} data-testid="assigned-default">
            {t('assigned.isDefault')}
          </Alert>
        ) : null}
        <Checkbox.Group label={t('assigned.label')} description={availability.help} value={checked} onChange={setChecked}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={8} mt="xs">
            {enumerations.outcomeForms.map((option) => {
              const code = Number(option.value);
              const unavailable = availability.isUnavailable(code);
              return (
                <Checkbox
                  key={code}
                  value={String(code)}
                  label={availability.label(code, outcomeFormName(code, i18n.language))}
                  // Still untickable when an earlier assignment holds it, so staff can take it off.
                  disabled={unavailable && !checked.includes(String(code))}
                  description={unavailable ? availability.reason : undefined}
                />
              );
            })}
          </SimpleGrid>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('send.cancel')}
          </Button>
          <Button type="submit" loading={saving.isPending}>
            {t('assigned.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function UnfilledForms({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation('questionnaires');
  const unfilled = useQuery(questionnaireQueries.unfilled(appointmentId));
  let body;
  if (unfilled.isError) body = <ErrorAlert testId="unfilled-error">{errorText(unfilled.error)}</ErrorAlert>;
  else if (!unfilled.data) body = <Loader size="sm" aria-label={t('common:loading')} />;
  else if (unfilled.data.length === 0)
    body = (
      <Text size="sm" c="dimmed">
        {t('assigned.allFilled')}
      </Text>
    );
  else
    body = (
      <List size="sm" data-testid="unfilled-forms">
        {unfilled.data.map((form) => (
          <List.Item key={form.formCode}>{outcomeFormName(form.formCode)}</List.Item>
        ))}
      </List>
    );
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        {t('assigned.unfilled')}
      </Title>
      {body}
    </Stack>
  );
}

function DialogBody({ appointment, onClose }: { appointment: AppointmentRef; onClose: () => void }) {
  const { t } = useTranslation('questionnaires');
  const timeZone = useSession().instance.timeZoneId;
  const assigned = useQuery(questionnaireQueries.assignedPros(appointment.id));
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('assigned.for', { name: appointment.patientName, when: formatClinicDateTime(appointment.startsAt, timeZone) })}
      </Text>
      {assigned.isError ? (
        <ErrorAlert testId="assigned-error">{errorText(assigned.error)}</ErrorAlert>
      ) : assigned.data ? (
        <AssignedForm appointment={appointment} assigned={assigned.data} onClose={onClose} />
      ) : (
        <Loader size="sm" aria-label={t('common:loading')} />
      )}
      <UnfilledForms appointmentId={appointment.id} />
    </Stack>
  );
}

/** The appointment row action "Outcome forms": which PROs this visit asks for, and which are still open. */
export function OutcomeFormsAction({ appointment }: { appointment: AppointmentRef }) {
  const { t } = useTranslation('questionnaires');
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        size="xs"
        variant="subtle"
        leftSection={<IconClipboardList size={14} aria-hidden />}
        onClick={() => setOpened(true)}
        aria-label={t('assigned.actionFor', { name: appointment.patientName })}
      >
        {t('assigned.action')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('assigned.title')} size="lg">
        {opened ? <DialogBody appointment={appointment} onClose={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}
