import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconMail, IconMessage, IconPhone } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { enumerations, type EnumOption } from '@pathwell/contracts/enumerations';
import type { PatientDemographics } from '@pathwell/contracts/patient-dashboard';

const knownPhoneTypes = new Set([1, 2, 3, 4, 5, 7]);

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div" size="sm">
        {children}
      </Text>
    </div>
  );
}

function OptIn({ label, on, icon }: { label: string; on: boolean; icon: ReactNode }) {
  const { t } = useTranslation('patientDashboard');
  return (
    <Badge color={on ? 'teal' : 'gray'} variant="light" leftSection={icon} radius="sm">
      {`${label}: ${on ? t('demographics.optedIn') : t('demographics.optedOut')}`}
    </Badge>
  );
}

const labelsOf = (options: readonly EnumOption[], codes: readonly number[], language: 'en' | 'es') =>
  codes.map((code) => options.find((option) => option.value === code)?.label[language] ?? String(code)).join(', ');

/** Who the patient is and how to reach them, with the email and text opt-ins. */
export function DemographicsCard({ patient }: { patient: PatientDemographics }) {
  const { t, i18n } = useTranslation('patientDashboard');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const titleId = useId();
  const none = t('demographics.none');
  const source =
    patient.referralSource == null ? null : labelsOf(enumerations.referralSources, [patient.referralSource], language);
  const referral = [source, patient.referringProviderName].filter(Boolean).join(' · ');
  const [year, month, day] = patient.dateOfBirth.split('-');
  const address = [
    patient.streetAddress1,
    patient.streetAddress2,
    [patient.city, [patient.state, patient.zip].filter(Boolean).join(' ')].filter(Boolean).join(', '),
  ].filter(Boolean);

  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby={titleId} data-testid="demographics-card">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Title order={2} size="h4" id={titleId}>
            {t('demographics.title')}
          </Title>
          <Group gap={6}>
            <Badge color={patient.status === 'active' ? 'teal' : 'gray'} variant="light">
              {t(`demographics.${patient.status}`)}
            </Badge>
            {patient.archived ? (
              <Badge color="orange" variant="light" title={patient.archiveReason ?? undefined}>
                {patient.archiveReason
                  ? t('demographics.archivedReason', { reason: patient.archiveReason })
                  : t('demographics.archived')}
              </Badge>
            ) : null}
            {patient.accountClosed ? (
              <Badge color="red" variant="light">
                {t('demographics.accountClosed')}
              </Badge>
            ) : null}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Field label={t('demographics.birthDate')}>{`${month}/${day}/${year}`}</Field>
          <Field label={t('demographics.age')}>{t('demographics.ageValue', { age: patient.age })}</Field>
          <Field label={t('demographics.gender')}>{patient.genderName ?? none}</Field>
          <Field label={t('demographics.language')}>{t(`demographics.languages.${patient.preferredLanguage}`)}</Field>
          <Field label={t('demographics.doctor')}>{patient.doctor?.name ?? none}</Field>
          <Field label={t('demographics.email')}>
            {patient.email ? <span style={{ overflowWrap: 'anywhere' }}>{patient.email}</span> : none}
          </Field>
          <Field label={t('demographics.referral')}>
            <span data-testid="demographics-referral">{referral || none}</span>
          </Field>
          {(['diseaseStates', 'psychiatricHistory', 'surgicalHistory'] as const).map((name) => (
            <Field key={name} label={t(`demographics.${name}`)}>
              <span data-testid={`demographics-${name}`}>
                {patient[name]?.length ? labelsOf(enumerations[name], patient[name], language) : none}
              </span>
            </Field>
          ))}
        </SimpleGrid>
        <Field label={t('demographics.address')}>
          {address.length ? address.map((line) => <div key={line}>{line}</div>) : none}
        </Field>
        <Field label={t('demographics.phones')}>
          {patient.phones.length === 0 ? (
            t('demographics.noPhones')
          ) : (
            <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="demographics-phones">
              {patient.phones.map((phone) => (
                <Group key={phone.id} gap="xs" component="li" wrap="wrap">
                  <IconPhone size={14} aria-hidden />
                  <Text size="sm" fw={500}>
                    {t(`phoneTypes.${knownPhoneTypes.has(phone.phoneType) ? phone.phoneType : 'other'}`)}
                  </Text>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    <a href={`tel:${phone.number.replace(/[^\d+]/g, '')}`}>{phone.number}</a>
                  </Text>
                  {phone.contactName ? (
                    <Text size="sm" c="dimmed">
                      {phone.relation ? `${phone.contactName} (${phone.relation})` : phone.contactName}
                    </Text>
                  ) : null}
                  {phone.isPrimary ? (
                    <Badge size="xs" variant="outline">
                      {t('demographics.primary')}
                    </Badge>
                  ) : null}
                </Group>
              ))}
            </Stack>
          )}
        </Field>
        <Field label={t('demographics.optIns')}>
          <Group gap="xs" mt={4} data-testid="demographics-opt-ins">
            <OptIn label={t('demographics.emailOptIn')} on={patient.enableEmail} icon={<IconMail size={12} aria-hidden />} />
            <OptIn label={t('demographics.textOptIn')} on={patient.enableText} icon={<IconMessage size={12} aria-hidden />} />
          </Group>
        </Field>
      </Stack>
    </Paper>
  );
}
