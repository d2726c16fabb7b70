import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { StaffAccessRequest } from '@pathwell/contracts/patient-links';
import { api } from '../../lib/api-client';
import { formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';

const accessRequestKeys = { patient: (patientId: string) => ['access-requests', patientId] as const };

/**
 * "Request portal access" as staff see it (issue #12): someone with this patient's link could not pass
 * the identity check and left a name and a number. Staff compare it with the record, call back, send a
 * fresh link if it was the patient, and mark it handled. Shown only while a request is open.
 */
export function AccessRequestsCard({ patientId, timeZone }: { patientId: string; timeZone: string }) {
  const { t } = useTranslation('intakeStaff');
  const queryClient = useQueryClient();
  const requests = useQuery({
    queryKey: accessRequestKeys.patient(patientId),
    queryFn: () => api.get<StaffAccessRequest[]>(`/api/patients/${patientId}/access-requests`),
  });
  const handled = useMutation({
    mutationFn: (requestId: string) => api.post(`/api/patients/${patientId}/access-requests/${requestId}/handled`),
    onSuccess: () => {
      notify('success', t('accessRequests.handledDone'));
      return queryClient.invalidateQueries({ queryKey: accessRequestKeys.patient(patientId) });
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  const open = requests.data?.filter((request) => !request.handledAt) ?? [];
  if (open.length === 0) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconKey size={18} aria-hidden />} data-testid="access-requests">
      <Stack gap="sm">
        <Title order={2} size="h5">
          {t('accessRequests.title', { count: open.length })}
        </Title>
        <Text size="sm">{t('accessRequests.intro')}</Text>
        {open.map((request) => (
          <Stack key={request.id} gap={2} component="section" aria-label={formatClinicDateTime(request.createdAt, timeZone)}>
            <Text size="sm" fw={600}>
              {formatClinicDateTime(request.createdAt, timeZone)}
            </Text>
            <Text size="sm">
              {t('accessRequests.name')}: {request.name}
            </Text>
            <Text size="sm">
              {t('accessRequests.dateOfBirth')}: {request.dateOfBirth ?? t('accessRequests.notGiven')}
            </Text>
            <Text size="sm">
              {t('accessRequests.contact')}: {request.contact}
            </Text>
            {request.message ? (
              <Text size="sm">
                {t('accessRequests.message')}: {request.message}
              </Text>
            ) : null}
            <Group>
              <Button
                size="xs"
                variant="light"
                color="orange"
                loading={handled.isPending && handled.variables === request.id}
                onClick={() => handled.mutate(request.id)}
              >
                {t('accessRequests.markHandled')}
              </Button>
            </Group>
          </Stack>
        ))}
      </Stack>
    </Alert>
  );
}
