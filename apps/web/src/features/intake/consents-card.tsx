import { Alert, Badge, Button, Checkbox, Group, Loader, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconFileTypePdf, IconSignature } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CreatedConsentLink, PatientConsents, SignableConsentKind } from '@pathwell/contracts/consent-links';
import { absoluteUrl, CopyLinkButton } from '../../components/copy-link-button';
import { ErrorAlert } from '../../components/error-alert';
import { api, apiFetch, ApiError } from '../../lib/api-client';
import { formatClinicDate } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { translateValidation } from '../../lib/i18n';
import { notify } from '../../lib/notify';

const consentKeys = { patient: (patientId: string) => ['consents', patientId] as const };

async function openPdf(url: string) {
  try {
    const blob = await (await apiFetch(url, { accept: 'application/pdf' })).blob();
    window.open(URL.createObjectURL(blob), '_blank', 'noopener');
  } catch (failure) {
    notify('error', errorText(failure));
  }
}

/**
 * The patient's consents (decision 0036): the latest of each kind with its expiry and PDF; staff send the
 * injection consent to sign on a phone or the clinic's tablet, and ask for an expired one to be signed again.
 */
export function ConsentsCard({ patientId, timeZone }: { patientId: string; timeZone: string }) {
  const { t } = useTranslation('intakeStaff');
  const consents = useQuery({
    queryKey: consentKeys.patient(patientId),
    queryFn: () => api.get<PatientConsents>(`/api/patients/${patientId}/consents`),
  });
  const [sending, setSending] = useState<SignableConsentKind | null>(null);
  const data = consents.data;
  const agreement = data?.latest.find((consent) => consent.kind === 'newPatientAgreement');
  return (
    <Paper withBorder p="md" data-testid="patient-consents">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('consents.title')}
          </Title>
          {data?.shotConsentEnabled ? (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconSignature size={16} aria-hidden />}
              onClick={() => setSending('shotConsent')}
            >
              {t('consents.sendShot')}
            </Button>
          ) : null}
        </Group>
        {consents.isPending ? <Loader size="sm" aria-label={t('common:loading')} /> : null}
        {consents.isError ? <ErrorAlert>{t('consents.loadFailed')}</ErrorAlert> : null}
        {data && data.latest.length === 0 ? <Text c="dimmed">{t('consents.none')}</Text> : null}
        {data?.latest.map((consent) => (
          <Group key={consent.id} justify="space-between" wrap="nowrap" data-testid={`consent-${consent.kind}`}>
            <Stack gap={0}>
              <Text fw={600} size="sm">
                {t(`consents.kinds.${consent.kind}`)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('consents.signedOn', {
                  date: formatClinicDate(consent.signedAt, timeZone),
                  language: consent.language.toUpperCase(),
                })}
                {consent.expiresAt
                  ? ` · ${t(consent.expired ? 'consents.expiredOn' : 'consents.expiresOn', { date: formatClinicDate(consent.expiresAt, timeZone) })}`
                  : ''}
              </Text>
            </Stack>
            {/* The badge and the PDF button keep their size; the date line wraps instead (else "V…", "PI"). */}
            <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
              {consent.expired ? (
                <Badge color="orange">{t('consents.expired')}</Badge>
              ) : (
                <Badge color="green">{t('consents.valid')}</Badge>
              )}
              <Button
                size="compact-sm"
                variant="subtle"
                leftSection={<IconFileTypePdf size={16} aria-hidden />}
                aria-label={t('consents.openPdfOf', { name: t(`consents.kinds.${consent.kind}`) })}
                onClick={() => void openPdf(consent.pdfUrl)}
              >
                PDF
              </Button>
            </Group>
          </Group>
        ))}
        {agreement?.expired ? (
          <Group>
            <Button size="xs" variant="light" color="orange" onClick={() => setSending('newPatientAgreement')}>
              {t('consents.askAgain')}
            </Button>
          </Group>
        ) : null}
        {data?.pending.map((pending) => (
          <Text key={pending.linkId} size="sm" data-testid="consent-pending">
            {t('consents.waiting', {
              what: pending.kinds.map((kind) => t(`consents.kinds.${kind}`)).join(', '),
              date: formatClinicDate(pending.createdAt, timeZone),
            })}
          </Text>
        ))}
      </Stack>
      <Modal opened={sending !== null} onClose={() => setSending(null)} title={sending ? t(`consents.sendTitle.${sending}`) : ''}>
        {sending ? <SendConsent patientId={patientId} kind={sending} onClose={() => setSending(null)} /> : null}
      </Modal>
    </Paper>
  );
}

function SendConsent({ patientId, kind, onClose }: { patientId: string; kind: SignableConsentKind; onClose: () => void }) {
  const { t } = useTranslation('intakeStaff');
  const queryClient = useQueryClient();
  const [channels, setChannels] = useState<string[]>(['email']);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedConsentLink | null>(null);
  const send = useMutation({
    mutationFn: () => api.post<CreatedConsentLink>('/api/patients/consentlinks', { patientId, kinds: [kind], send: channels }),
    onSuccess: (link) => {
      setCreated(link);
      void queryClient.invalidateQueries({ queryKey: consentKeys.patient(patientId) });
    },
    onError: (failure) => {
      const fields = failure instanceof ApiError ? failure.fields : {};
      const field = fields.send ?? fields.kinds;
      setProblem((field && translateValidation(field)) ?? errorText(failure));
    },
  });
  if (created) {
    const url = absoluteUrl(created.url);
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" icon={<IconCheck size={18} aria-hidden />} data-testid="consent-link-created">
          {created.sent.length
            ? t('consents.sent', { channels: created.sent.map((item) => t(`consents.channel.${item.channel}`)).join(', ') })
            : t('consents.created')}
        </Alert>
        <TextInput
          label={t('consents.url')}
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          data-testid="consent-link-url"
        />
        <Text size="sm" c="dimmed">
          {t('consents.tablet')}
        </Text>
        <Group justify="flex-end">
          <CopyLinkButton url={url} label={t('consents.copy')} copiedLabel={t('consents.copied')} />
          <Button onClick={onClose}>{t('consents.done')}</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Text size="sm">{t(`consents.sendIntro.${kind}`)}</Text>
      <Checkbox.Group label={t('consents.sendBy')} value={channels} onChange={setChannels}>
        <Group mt="xs">
          <Checkbox value="email" label={t('consents.channel.email')} />
          <Checkbox value="sms" label={t('consents.channel.sms')} />
        </Group>
      </Checkbox.Group>
      {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('consents.cancel')}
        </Button>
        <Button loading={send.isPending} onClick={() => send.mutate()}>
          {channels.length ? t('consents.send') : t('consents.makeLink')}
        </Button>
      </Group>
    </Stack>
  );
}
