import { Badge, Box, Button, Checkbox, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IntakeChange, IntakeRecordField } from '@pathwell/contracts/intake-record';
import { errorText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { patientKeys } from '../patients/patients.api';
import { patientDashboardKeys } from '../patient-dashboard/patient-dashboard.api';
import { intakeRecordApi } from './intake-record.api';

/** Parts whose value is a code the page words itself. */
const wordedParts = new Set(['relationshipToInsured', 'language']);
const wordedValueFields = new Set<IntakeRecordField>(['sexAssignedAtBirth', 'communicationPreference']);

/** One field's parts as the page shows them: each part named, codes in words. */
export function useFieldText() {
  const { t } = useTranslation('intakeStaff');
  return (field: IntakeRecordField, values: Record<string, string> | null): string => {
    if (!values) return t('record.nothing');
    if (values.selfPay) return t('record.selfPay');
    if (field === 'address') {
      const { streetAddress1, streetAddress2, city, state, zip } = values;
      return [streetAddress1, streetAddress2, [city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ')]
        .filter(Boolean)
        .join(', ');
    }
    return Object.entries(values)
      .map(([part, value]) => {
        const worded = wordedParts.has(part)
          ? t(`record.codes.${part}.${value}`, { defaultValue: value })
          : part === 'value' && wordedValueFields.has(field)
            ? value
                .split(', ')
                .map((code) => t(`record.codes.${field}.${code}`, { defaultValue: code }))
                .join(', ')
            : value;
        return ['value', 'email', 'number'].includes(part) ? worded : `${t(`record.parts.${part}`)}: ${worded}`;
      })
      .join(' · ');
  };
}

/**
 * What the patient wrote on the paperwork against what is on file (issue #24 §4): each answered field
 * side by side; staff tick the ones that should replace the record and accept them in one go.
 */
export function IntakeChanges({ patientId, linkId, changes }: { patientId: string; linkId: string; changes: IntakeChange[] }) {
  const { t } = useTranslation('intakeStaff');
  const queryClient = useQueryClient();
  const text = useFieldText();
  const [picked, setPicked] = useState<IntakeRecordField[]>([]);
  const accept = useMutation({
    mutationFn: (fields: IntakeRecordField[]) => intakeRecordApi.accept(patientId, linkId, fields),
    onSuccess: async (_changes, fields) => {
      notify('success', t('record.accepted', { count: fields.length }));
      setPicked([]);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['intake', 'patient', patientId] }),
        queryClient.invalidateQueries({ queryKey: patientKeys.detail(patientId) }),
        queryClient.invalidateQueries({ queryKey: patientDashboardKeys.patient(patientId) }),
      ]);
    },
    onError: (failure) => notify('error', errorText(failure)),
  });
  if (changes.length === 0) return null;
  const differing = changes.filter((change) => change.differs);
  const takeable = differing.filter((change) => change.blocked === null);
  const toggle = (field: IntakeRecordField, on: boolean) =>
    setPicked((current) => (on ? [...current, field] : current.filter((candidate) => candidate !== field)));
  return (
    <Stack gap="xs" data-testid="intake-changes">
      <Group justify="space-between" wrap="wrap">
        <Title order={3} size="h5">
          {t('record.title')}
        </Title>
        <Text size="sm" fw={differing.length > 0 ? 700 : undefined} c={differing.length > 0 ? undefined : 'dimmed'}>
          {differing.length > 0 ? t('record.differ', { count: differing.length }) : t('record.allSame')}
        </Text>
      </Group>
      {takeable.length > 1 ? (
        <Checkbox
          size="xs"
          label={t('record.pickAll')}
          checked={picked.length === takeable.length}
          indeterminate={picked.length > 0 && picked.length < takeable.length}
          onChange={(event) => setPicked(event.currentTarget.checked ? takeable.map((change) => change.field) : [])}
        />
      ) : null}
      {/* One field under another, not a table: the card is half a 1280 px page wide. */}
      <Stack gap={6} role="list" aria-label={t('record.title')}>
        {changes.map((change) => {
          const label = t(`record.fields.${change.field}`);
          const takeableField = change.differs && change.blocked === null;
          return (
            <Group
              key={change.field}
              gap="xs"
              wrap="nowrap"
              align="flex-start"
              role="listitem"
              data-testid={`intake-change-${change.field}`}
              className="intake-change"
            >
              {takeableField ? (
                <Checkbox
                  mt={2}
                  aria-label={t('record.pick', { field: label })}
                  checked={picked.includes(change.field)}
                  onChange={(event) => toggle(change.field, event.currentTarget.checked)}
                />
              ) : (
                <Box w={20} style={{ flexShrink: 0 }} />
              )}
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Group gap={6} wrap="wrap">
                  <Text size="sm" fw={700}>
                    {label}
                  </Text>
                  {!change.differs ? (
                    <Badge size="xs" variant="light" color="gray">
                      {t('record.same')}
                    </Badge>
                  ) : null}
                </Group>
                {change.differs ? (
                  <>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      <Text span size="sm" c="dimmed">
                        {t('record.onFile')}:{' '}
                      </Text>
                      {text(change.field, change.onFile)}
                    </Text>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      <Text span size="sm" c="dimmed">
                        {t('record.answer')}:{' '}
                      </Text>
                      <Text span size="sm" fw={600}>
                        {text(change.field, change.answer)}
                      </Text>
                    </Text>
                  </>
                ) : (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {text(change.field, change.answer)}
                  </Text>
                )}
                {change.differs && change.blocked ? (
                  <Text size="xs" c="dimmed">
                    {t('record.notCoded')}
                  </Text>
                ) : null}
              </Stack>
            </Group>
          );
        })}
      </Stack>
      {takeable.length > 0 ? (
        <Group>
          <Button
            size="xs"
            disabled={picked.length === 0}
            loading={accept.isPending}
            onClick={() => accept.mutate(picked)}
            data-testid="intake-accept"
          >
            {t('record.accept', { count: picked.length })}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
