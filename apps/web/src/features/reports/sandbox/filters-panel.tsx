import {
  Accordion,
  Button,
  Group,
  Input,
  MultiSelect,
  Paper,
  RangeSlider,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { IconFilter, IconRotate } from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { enumerations, type EnumOption } from '@pathwell/contracts/enumerations';
import {
  ReportSummaryDataType,
  SUMMARY_AGE_MAX,
  SUMMARY_BMI_MAX,
  SUMMARY_BMI_MIN,
  SUMMARY_VISIT_WEEKS_MAX,
  SUMMARY_VISIT_WEEKS_STEP,
  summaryAnchors,
  type SummaryAnchor,
} from '@pathwell/contracts/reports-summary';
import { translateValidation } from '../../../lib/i18n';
import { OUTCOME_FORM_CODES, outcomeFormName } from '../../questionnaires/questionnaire-text';
import type { Option } from './sandbox.api';
import { PAIN_MAX, RAND_MAX, type FieldErrors, type FilterSection, type Range, type SandboxDraft } from './sandbox-filter';

type Options = {
  procedures: Option[];
  studyGroups: Option[];
  bodyLocations: Option[];
  genders: Option[];
  occupations: Option[];
  maritalStatus: Option[];
  payorStatus: Option[];
  templates: Option[];
};

type ListField =
  | 'formIds'
  | 'procedureItemIds'
  | 'studyGroups'
  | 'bodyLocations'
  | 'genders'
  | 'occupations'
  | 'maritalStatus'
  | 'payorStatus'
  | 'nicotineStatus'
  | 'diseaseStates'
  | 'psychaitricStatus'
  | 'surgicalHistory'
  | 'perioperativeMessageTemplateIds';

const weekMarks = Array.from({ length: SUMMARY_VISIT_WEEKS_MAX / SUMMARY_VISIT_WEEKS_STEP + 1 }, (_, index) => ({
  value: index * SUMMARY_VISIT_WEEKS_STEP,
  label: String(index * SUMMARY_VISIT_WEEKS_STEP),
}));

/**
 * Section 3's summary report filter in three collapsible sections, so the page stays narrow at 1280 px.
 * Nothing runs while the person moves a slider: Apply sends the filter, Reset goes back to the defaults.
 */
export function FiltersPanel({
  draft,
  onChange,
  errors,
  showBmi,
  options,
  openSections,
  onOpenSections,
  onApply,
  onReset,
  running,
  actions,
}: {
  draft: SandboxDraft;
  onChange: (change: Partial<SandboxDraft>) => void;
  errors: FieldErrors;
  showBmi: boolean;
  options: Options;
  openSections: FilterSection[];
  onOpenSections: (sections: FilterSection[]) => void;
  onApply: () => void;
  onReset: () => void;
  running: boolean;
  actions?: ReactNode;
}) {
  const { t, i18n } = useTranslation('reportsSandbox');
  const language = i18n.language === 'es' ? 'es' : 'en';
  const enumOptions = (values: readonly EnumOption[]): Option[] =>
    values.map((option) => ({ value: String(option.value), label: option.label[language] }));
  const error = (...fields: string[]) => {
    const key = fields.map((field) => errors[field]).find(Boolean);
    return key ? translateValidation(key) : undefined;
  };
  const pro = draft.reportSummaryDataType === ReportSummaryDataType.PRO;

  const list = (name: ListField, data: Option[], testId: string) => (
    <MultiSelect
      label={t(`filters.${name}`)}
      placeholder={draft[name].length === 0 ? t('filters.any') : undefined}
      data={data}
      value={draft[name]}
      onChange={(value) => onChange({ [name]: value })}
      error={error(name)}
      searchable
      clearable
      nothingFoundMessage={t('filters.nothingFound')}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );

  const range = (
    name: 'visit' | 'age' | 'startingPain' | 'bmi' | 'rand',
    fields: [string, string],
    bounds: { min: number; max: number; step?: number; marks?: { value: number; label: string }[] },
    testId: string,
  ) => (
    <RangeField
      label={t(`filters.${name}`)}
      valueText={t(`filters.${name}Value`, { from: draft[name][0], to: draft[name][1] })}
      value={draft[name]}
      onChange={(value) => onChange({ [name]: value })}
      error={error(...fields)}
      testId={testId}
      {...bounds}
    />
  );

  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component="form"
      aria-label={t('filters.label')}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onApply();
      }}
      data-testid="sandbox-filters"
    >
      <Accordion
        multiple
        variant="separated"
        value={openSections}
        onChange={(value) => onOpenSections(value as FilterSection[])}
        order={2}
      >
        <Accordion.Item value="outcome">
          <Accordion.Control>{t('filters.sections.outcome')}</Accordion.Control>
          <Accordion.Panel>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="md">
              <Labelled label={t('filters.reportSummaryDataType')}>
                {(labelId) => (
                  <SegmentedControl
                    aria-labelledby={labelId}
                    value={String(draft.reportSummaryDataType)}
                    onChange={(value) => onChange({ reportSummaryDataType: Number(value) as 1 | 2 })}
                    data={[
                      { value: String(ReportSummaryDataType.PRO), label: t('filters.dataTypes.pro') },
                      { value: String(ReportSummaryDataType.Pain), label: t('filters.dataTypes.pain') },
                    ]}
                    data-testid="sandbox-data-type"
                  />
                )}
              </Labelled>
              {pro
                ? list(
                    'formIds',
                    OUTCOME_FORM_CODES.map((code) => ({ value: String(code), label: outcomeFormName(code, language) })),
                    'sandbox-forms',
                  )
                : null}
              <Labelled label={t('filters.anchor')}>
                {(labelId) => (
                  <SegmentedControl
                    aria-labelledby={labelId}
                    value={draft.anchor}
                    onChange={(value) => onChange({ anchor: value as SummaryAnchor })}
                    data={summaryAnchors.map((anchor) => ({ value: anchor, label: t(`filters.anchors.${anchor}`) }))}
                    data-testid="sandbox-anchor"
                  />
                )}
              </Labelled>
              {draft.anchor === 'procedure' ? list('procedureItemIds', options.procedures, 'sandbox-procedures') : null}
              {range(
                'visit',
                ['visitMin', 'visitMax'],
                { min: 0, max: SUMMARY_VISIT_WEEKS_MAX, step: SUMMARY_VISIT_WEEKS_STEP, marks: weekMarks },
                'sandbox-visit',
              )}
              <TextInput
                label={t('filters.startDate')}
                description={t('filters.dateHelp')}
                placeholder={t('filters.datePlaceholder')}
                inputMode="numeric"
                maxLength={10}
                value={draft.startDate}
                onChange={(event) => onChange({ startDate: event.currentTarget.value })}
                error={error('startDate')}
                data-testid="sandbox-start-date"
              />
              <TextInput
                label={t('filters.endDate')}
                description={t('filters.dateHelp')}
                placeholder={t('filters.datePlaceholder')}
                inputMode="numeric"
                maxLength={10}
                value={draft.endDate}
                onChange={(event) => onChange({ endDate: event.currentTarget.value })}
                error={error('endDate')}
                data-testid="sandbox-end-date"
              />
              <Switch
                label={t('filters.postDeployment')}
                description={t('filters.postDeploymentHelp')}
                checked={draft.postDeploymentAppointments}
                onChange={(event) => onChange({ postDeploymentAppointments: event.currentTarget.checked })}
                error={error('postDeploymentAppointments')}
                data-testid="sandbox-post-deployment"
              />
            </SimpleGrid>
          </Accordion.Panel>
        </Accordion.Item>

        <Accordion.Item value="patients">
          <Accordion.Control>{t('filters.sections.patients')}</Accordion.Control>
          <Accordion.Panel>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="md">
              {range('age', ['ageMin', 'ageMax'], { min: 0, max: SUMMARY_AGE_MAX }, 'sandbox-age')}
              {range(
                'startingPain',
                ['startingPainScoreMin', 'startingPainScoreMax'],
                { min: 0, max: PAIN_MAX },
                'sandbox-starting-pain',
              )}
              {showBmi ? range('bmi', ['bmiMin', 'bmiMax'], { min: SUMMARY_BMI_MIN, max: SUMMARY_BMI_MAX }, 'sandbox-bmi') : null}
              {range('rand', ['randScoreMin', 'randScoreMax'], { min: 0, max: RAND_MAX }, 'sandbox-rand')}
              {list('genders', options.genders, 'sandbox-genders')}
              {list('maritalStatus', options.maritalStatus, 'sandbox-marital-status')}
              {list('occupations', options.occupations, 'sandbox-occupations')}
              {list('payorStatus', options.payorStatus, 'sandbox-payor-status')}
              {list('nicotineStatus', enumOptions(enumerations.nicotineStatus), 'sandbox-nicotine-status')}
              <TextInput
                label={t('filters.patientName')}
                maxLength={100}
                value={draft.patientName}
                onChange={(event) => onChange({ patientName: event.currentTarget.value })}
                error={error('patientName', 'patientId')}
                data-testid="sandbox-patient-name"
              />
            </SimpleGrid>
          </Accordion.Panel>
        </Accordion.Item>

        <Accordion.Item value="history">
          <Accordion.Control>{t('filters.sections.history')}</Accordion.Control>
          <Accordion.Panel>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="md">
              {list('studyGroups', options.studyGroups, 'sandbox-study-groups')}
              {list('bodyLocations', options.bodyLocations, 'sandbox-body-locations')}
              {list('diseaseStates', enumOptions(enumerations.diseaseStates), 'sandbox-disease-states')}
              {list('psychaitricStatus', enumOptions(enumerations.psychiatricHistory), 'sandbox-psychiatric')}
              {list('surgicalHistory', enumOptions(enumerations.surgicalHistory), 'sandbox-surgical')}
              {list('perioperativeMessageTemplateIds', options.templates, 'sandbox-templates')}
            </SimpleGrid>
          </Accordion.Panel>
        </Accordion.Item>
      </Accordion>
      <Group justify="space-between" mt="md" gap="xs" wrap="wrap">
        <Group gap="xs">{actions}</Group>
        <Group gap="xs">
          <Button
            variant="subtle"
            color="gray"
            leftSection={<IconRotate size={16} aria-hidden />}
            onClick={onReset}
            data-testid="sandbox-reset"
          >
            {t('filters.reset')}
          </Button>
          <Button type="submit" loading={running} leftSection={<IconFilter size={16} aria-hidden />} data-testid="sandbox-apply">
            {t('filters.apply')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

/** A control without a native label (segmented control) named by the text above it. */
function Labelled({ label, children }: { label: string; children: (labelId: string) => ReactNode }) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Input.Label id={id} component="div">
        {label}
      </Input.Label>
      {children(id)}
    </Stack>
  );
}

function RangeField({
  label,
  valueText,
  value,
  onChange,
  error,
  min,
  max,
  step = 1,
  marks,
  testId,
}: {
  label: string;
  valueText: string;
  value: Range;
  onChange: (value: Range) => void;
  error?: string;
  min: number;
  max: number;
  step?: number;
  marks?: { value: number; label: string }[];
  testId: string;
}) {
  const { t } = useTranslation('reportsSandbox');
  const id = useId();
  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      id={id}
      description={valueText}
      error={error}
      data-testid={testId}
      pb={marks ? 'md' : undefined}
    >
      <RangeSlider
        mt={6}
        min={min}
        max={max}
        step={step}
        minRange={0}
        marks={marks}
        value={value}
        onChange={onChange}
        label={null}
        thumbFromLabel={t('filters.rangeFrom', { label })}
        thumbToLabel={t('filters.rangeTo', { label })}
      />
    </Input.Wrapper>
  );
}
