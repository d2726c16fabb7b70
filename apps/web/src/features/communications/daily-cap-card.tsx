import { Button, Group, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PATIENT_MESSAGES_PER_DAY_LIMIT, type DailyCap } from '@pathwell/contracts/instance-settings';
import { QueryState } from '../../components/data-table';
import { api, ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';

const dailyCapKey = ['instancesettings', 'dailycap'] as const;

/**
 * The clinic's daily cap of automatic messages per patient (decision 0066), beside the messages it
 * holds: Admins and System Managers set it here; empty means no limit.
 */
export function DailyCapCard() {
  const { t } = useTranslation('communications');
  const query = useQuery({
    queryKey: dailyCapKey,
    queryFn: () => api.get<DailyCap>('/api/instancesettings/dailycap'),
    meta: { silent: true },
  });
  return (
    <Paper withBorder p="md" data-testid="daily-cap">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('dailyCap.title')}
        </Title>
        <QueryState
          query={query}
          retryLabel={t('dailyCap.retry')}
          errorPrefix={t('dailyCap.loadFailed')}
          loadingLabel={t('dailyCap.loading')}
          errorTestId="daily-cap-error"
        >
          {(data) => <DailyCapForm key={String(data.maxPatientMessagesPerDay)} saved={data.maxPatientMessagesPerDay} />}
        </QueryState>
      </Stack>
    </Paper>
  );
}

function DailyCapForm({ saved }: { saved: number | null }) {
  const { t } = useTranslation('communications');
  const queryClient = useQueryClient();
  const [value, setValue] = useState<number | null>(saved);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (maxPatientMessagesPerDay: number | null) =>
      api.put<DailyCap>('/api/instancesettings/dailycap', { maxPatientMessagesPerDay }),
    onSuccess: (data) => {
      notify('success', t('dailyCap.saved'));
      queryClient.setQueryData(dailyCapKey, data);
    },
    onError: (failure) => {
      const field = failure instanceof ApiError ? failure.body?.fields?.maxPatientMessagesPerDay : undefined;
      if (field) setFieldError(translateValidation(field));
      else notify('error', errorText(failure));
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setFieldError(undefined);
        save.mutate(value);
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NumberInput
          label={t('dailyCap.label')}
          description={t('dailyCap.help')}
          value={value ?? ''}
          onChange={(next) => setValue(next === '' ? null : Number(next))}
          min={1}
          max={MAX_PATIENT_MESSAGES_PER_DAY_LIMIT}
          allowDecimal={false}
          error={fieldError}
          maw={520}
          data-testid="daily-cap-input"
        />
        <Button type="submit" loading={save.isPending} data-testid="daily-cap-save">
          {t('dailyCap.save')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        {value === null ? t('dailyCap.noLimit') : t('dailyCap.current', { count: value })}
      </Text>
    </form>
  );
}
