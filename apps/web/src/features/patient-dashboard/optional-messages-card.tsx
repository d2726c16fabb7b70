import { Badge, Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMail, IconMessage } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PatientDashboard } from '@pathwell/contracts/patient-dashboard';
import type { OptionalMessages } from '@pathwell/contracts/patients';
import type { Role } from '@pathwell/contracts/roles';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { api } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { patientDashboardKeys } from './patient-dashboard.api';

/** The clinic's people record what the patient told them; platform operators only see it (decision 0065). */
const recorders: readonly Role[] = ['Admin', 'Doctor', 'Staff'];

/**
 * Optional messages (campaigns) the patient agreed to, apart from care messages (decision 0065). Staff
 * record the patient's choice when the patient tells the clinic (the patient can also choose on their
 * intake link); who recorded it and when goes to the activity log.
 */
export function OptionalMessagesCard({ patientId, choice }: { patientId: string; choice: OptionalMessages }) {
  const { t } = useTranslation('patientDashboard');
  const role = useSession().user.role;
  const queryClient = useQueryClient();
  const titleId = useId();
  // What the clinic has on file: the dashboard's value, then what this card last recorded.
  const [recorded, setRecorded] = useState<OptionalMessages>(choice);
  const [draft, setDraft] = useState<OptionalMessages>(choice);
  const changed = draft.email !== recorded.email || draft.text !== recorded.text;
  const save = useMutation({
    mutationFn: () => api.put<OptionalMessages>(`/api/patients/${encodeURIComponent(patientId)}/optionalmessages`, draft),
    onSuccess: (saved) => {
      // The cached dashboard changes in place: reloading it would log another Viewed entry.
      queryClient.setQueryData<PatientDashboard>(patientDashboardKeys.patient(patientId), (current) =>
        current ? { ...current, demographics: { ...current.demographics, optionalMessages: saved } } : current,
      );
      setRecorded(saved);
      setDraft(saved);
      notify('success', t('optionalMessages.saved'));
    },
  });
  const canRecord = recorders.includes(role);

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="optional-messages-card">
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          {t('optionalMessages.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('optionalMessages.explain')}
        </Text>
        {canRecord ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (changed) save.mutate();
            }}
          >
            <Stack gap="sm">
              <Checkbox
                label={t('optionalMessages.email')}
                checked={draft.email}
                onChange={(event) => setDraft({ ...draft, email: event.currentTarget.checked })}
                disabled={save.isPending}
                data-testid="optional-messages-email"
              />
              <Checkbox
                label={t('optionalMessages.text')}
                checked={draft.text}
                onChange={(event) => setDraft({ ...draft, text: event.currentTarget.checked })}
                disabled={save.isPending}
                data-testid="optional-messages-text"
              />
              {save.isError ? <ErrorAlert testId="optional-messages-error">{errorText(save.error)}</ErrorAlert> : null}
              <Group gap="sm" wrap="wrap">
                <Button type="submit" disabled={!changed} loading={save.isPending} data-testid="optional-messages-save">
                  {t('optionalMessages.save')}
                </Button>
                <Text size="xs" c="dimmed">
                  {t('optionalMessages.audit')}
                </Text>
              </Group>
            </Stack>
          </form>
        ) : (
          <Group gap="xs" data-testid="optional-messages-read-only">
            {(['email', 'text'] as const).map((channel) => (
              <Badge
                key={channel}
                color={recorded[channel] ? 'teal' : 'gray'}
                variant="light"
                radius="sm"
                leftSection={channel === 'email' ? <IconMail size={12} aria-hidden /> : <IconMessage size={12} aria-hidden />}
              >
                {t(`optionalMessages.${channel}Badge`, {
                  answer: recorded[channel] ? t('demographics.optedIn') : t('demographics.optedOut'),
                })}
              </Badge>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
