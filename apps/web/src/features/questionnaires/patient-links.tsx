import { Badge, Button, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LinkStatus, PatientLink } from '@pathwell/contracts/patient-links';
import { ErrorAlert } from '../../components/error-alert';
import { formatClinicDate } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { outcomeFormName } from './questionnaire-text';
import { questionnaireApi, questionnaireKeys, questionnaireQueries } from './questionnaires.api';

const statusColor: Record<LinkStatus, string> = {
  active: 'blue',
  completed: 'teal',
  expired: 'gray',
  revoked: 'gray',
  locked: 'orange',
};

/** A link still usable (or only locked for a while) can be revoked; the others are history. */
const canRevoke = (link: PatientLink) => link.status === 'active' || link.status === 'locked';

/** The patient's questionnaire links, newest first as the server sends them, with Revoke. */
export function PatientLinks({ patientId, timeZone }: { patientId: string; timeZone: string }) {
  const { t, i18n } = useTranslation('questionnaires');
  const queryClient = useQueryClient();
  const links = useQuery(questionnaireQueries.patientLinks(patientId));
  const revoking = useMutation({
    mutationFn: (link: PatientLink) => questionnaireApi.revokeLink(link.id),
    onSuccess: () => notify('success', t('links.revoked')),
    onError: (failure) => notify('error', errorText(failure)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionnaireKeys.patientLinks(patientId) }),
  });

  let body;
  if (links.isError) body = <ErrorAlert testId="patient-links-error">{errorText(links.error)}</ErrorAlert>;
  else if (!links.data)
    body = (
      <Text size="sm" c="dimmed">
        {t('common:loading')}
      </Text>
    );
  else if (links.data.length === 0)
    body = (
      <Text size="sm" c="dimmed">
        {t('links.empty')}
      </Text>
    );
  else
    body = (
      <Table.ScrollContainer minWidth={420}>
        <Table verticalSpacing={6} data-testid="patient-links">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('links.form')}</Table.Th>
              <Table.Th scope="col">{t('links.status')}</Table.Th>
              <Table.Th scope="col">{t('links.when')}</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>{t('links.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {links.data.map((link) => {
              const form = link.formCode === null ? link.formTitle : outcomeFormName(link.formCode, i18n.language);
              return (
                <Table.Tr key={link.id} data-testid="patient-link">
                  <Table.Td>{form}</Table.Td>
                  <Table.Td>
                    <Badge color={statusColor[link.status]} variant="light">
                      {t(`links.statuses.${link.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {link.completedAt
                      ? t('links.completedOn', { date: formatClinicDate(link.completedAt, timeZone) })
                      : t('links.expiresOn', { date: formatClinicDate(link.expiresAt, timeZone) })}
                  </Table.Td>
                  <Table.Td>
                    {canRevoke(link) ? (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        onClick={() => revoking.mutate(link)}
                        loading={revoking.isPending && revoking.variables.id === link.id}
                        aria-label={t('links.revokeFor', { form })}
                      >
                        {t('links.revoke')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );

  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('links.title')}
      </Title>
      {body}
    </Stack>
  );
}
