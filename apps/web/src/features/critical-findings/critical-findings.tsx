import { Alert, Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { canAcknowledgeCriticalFindings, type CriticalFinding } from '@pathwell/contracts/critical-findings';
import { instruments, isFormCode } from '@pathwell/instruments';
import { useSession } from '../../app/session-context';
import { ErrorAlert } from '../../components/error-alert';
import { formatClinicDateTime } from '../../lib/dates';
import { errorText } from '../../lib/error-text';
import { localized } from '../questionnaires/questionnaire-text';
import { useAcknowledgeFinding } from './critical-findings.api';

const hasOpenFinding = (findings: CriticalFinding[]) => findings.some((finding) => finding.acknowledgedAt === null);

/** The rule's name, the answer the patient chose and the published source, from the instruments package. */
function describe(finding: CriticalFinding, language: string) {
  const definition = isFormCode(finding.formCode) ? instruments[finding.formCode] : null;
  const rule = definition?.criticalItems?.find((candidate) => candidate.key === finding.ruleKey);
  const question = definition?.questions.find((candidate) => candidate.id === finding.itemId);
  const option = question?.options?.find((candidate) => Number(candidate.value) === finding.answer);
  return {
    label: rule ? localized(rule.label, language) : finding.ruleKey,
    answer: option ? localized(option.label, language) : String(finding.answer),
    source: rule?.source ?? null,
  };
}

/**
 * The red flag of a list row (the patient dashboard's questionnaire results, the appointment
 * dashboard): red while a finding is open, grey once every one is acknowledged, nothing without one.
 */
export function CriticalFindingBadge({ findings, linked = false }: { findings: CriticalFinding[]; linked?: boolean }) {
  const { t } = useTranslation('questionnaires');
  if (findings.length === 0) return null;
  const open = hasOpenFinding(findings);
  const badge = (
    <Badge
      color={open ? 'red' : 'gray'}
      variant={open ? 'filled' : 'light'}
      leftSection={open ? <IconAlertTriangle size={14} aria-hidden /> : <IconCircleCheck size={14} aria-hidden />}
      data-testid="critical-flag"
      data-state={open ? 'open' : 'acknowledged'}
      style={{ overflow: 'visible' }}
    >
      {t(open ? 'critical.badgeOpen' : 'critical.badgeAcknowledged')}
    </Badge>
  );
  if (!linked) return badge;
  // The response of the open finding (else the latest) has the Acknowledge action.
  const target = findings.find((finding) => finding.acknowledgedAt === null) ?? findings[findings.length - 1]!;
  return (
    <Anchor component={Link} to={`/formresponse/result/${target.responseId}`} underline="never" data-testid="critical-flag-link">
      {badge}
    </Anchor>
  );
}

function FindingAlert({ finding }: { finding: CriticalFinding }) {
  const { t, i18n } = useTranslation('questionnaires');
  const session = useSession();
  const timeZone = session.instance.timeZoneId;
  const acknowledge = useAcknowledgeFinding();
  const { label, answer, source } = describe(finding, i18n.language);
  const open = finding.acknowledgedAt === null;
  return (
    <Alert
      color={open ? 'red' : 'gray'}
      variant={open ? 'filled' : 'light'}
      icon={open ? <IconAlertTriangle aria-hidden /> : <IconCircleCheck aria-hidden />}
      title={t('critical.title')}
      data-testid="critical-finding"
      data-state={open ? 'open' : 'acknowledged'}
    >
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {t('critical.answered', { label, answer })}
        </Text>
        <Text size="sm">{t('critical.raised', { when: formatClinicDateTime(finding.createdAt, timeZone) })}</Text>
        {open ? (
          canAcknowledgeCriticalFindings(session.user.role) ? (
            <>
              <Text size="sm">{t('critical.open')}</Text>
              <div>
                <Button
                  color="dark"
                  variant="white"
                  loading={acknowledge.isPending}
                  onClick={() => acknowledge.mutate(finding.id)}
                  data-testid="acknowledge-finding"
                >
                  {t('critical.acknowledge')}
                </Button>
              </div>
              {acknowledge.isError ? <ErrorAlert testId="acknowledge-error">{errorText(acknowledge.error)}</ErrorAlert> : null}
            </>
          ) : (
            <Text size="sm">{t('critical.waiting')}</Text>
          )
        ) : (
          <Text size="sm" data-testid="finding-acknowledged">
            {t('critical.acknowledged', {
              name: finding.acknowledgedByName,
              when: formatClinicDateTime(finding.acknowledgedAt!, timeZone),
            })}
          </Text>
        )}
        {source ? (
          <Text size="xs" c={open ? undefined : 'dimmed'}>
            {t('critical.source', { source })}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** The response page's findings, first thing on the page: red with Acknowledge, then who and when. */
export function CriticalFindingsPanel({ findings }: { findings: CriticalFinding[] }) {
  if (findings.length === 0) return null;
  return (
    <Stack gap="sm" data-testid="critical-findings">
      {findings.map((finding) => (
        <FindingAlert key={finding.id} finding={finding} />
      ))}
    </Stack>
  );
}
