import {
  ReportSummaryDataType,
  SUMMARY_AGE_MAX,
  SUMMARY_BMI_MAX,
  SUMMARY_BMI_MIN,
  SUMMARY_VISIT_WEEKS_MAX,
  summaryFilterSchema,
  type SummaryAnchor,
  type SummaryFilter,
} from '@pathwell/contracts/reports-summary';

export type Range = [number, number];

/** What the filter panel edits; multi-selects hold strings, as Mantine's MultiSelect does. */
export type SandboxDraft = {
  reportSummaryDataType: 1 | 2;
  formIds: string[];
  anchor: SummaryAnchor;
  procedureItemIds: string[];
  visit: Range;
  age: Range;
  startingPain: Range;
  bmi: Range;
  rand: Range;
  studyGroups: string[];
  bodyLocations: string[];
  genders: string[];
  occupations: string[];
  maritalStatus: string[];
  payorStatus: string[];
  nicotineStatus: string[];
  diseaseStates: string[];
  psychaitricStatus: string[];
  surgicalHistory: string[];
  patientName: string;
  perioperativeMessageTemplateIds: string[];
  startDate: string;
  endDate: string;
  postDeploymentAppointments: boolean;
};

export const RAND_MAX = 100;
export const PAIN_MAX = 10;

/** Section 9's defaults: the full visit, age and pain ranges; BMI and RAND unset. */
export const defaultDraft: SandboxDraft = {
  reportSummaryDataType: ReportSummaryDataType.PRO,
  formIds: [],
  anchor: 'firstScore',
  procedureItemIds: [],
  visit: [0, SUMMARY_VISIT_WEEKS_MAX],
  age: [0, SUMMARY_AGE_MAX],
  startingPain: [0, PAIN_MAX],
  bmi: [SUMMARY_BMI_MIN, SUMMARY_BMI_MAX],
  rand: [0, RAND_MAX],
  studyGroups: [],
  bodyLocations: [],
  genders: [],
  occupations: [],
  maritalStatus: [],
  payorStatus: [],
  nicotineStatus: [],
  diseaseStates: [],
  psychaitricStatus: [],
  surgicalHistory: [],
  patientName: '',
  perioperativeMessageTemplateIds: [],
  startDate: '',
  endDate: '',
  postDeploymentAppointments: false,
};

const sameRange = (a: Range, b: Range) => a[0] === b[0] && a[1] === b[1];
const numbers = (values: string[]) => values.map(Number);

/**
 * The request body. BMI and RAND go only when narrowed from their full range, so patients without a
 * BMI or a RAND-36 score are not dropped by a filter nobody set.
 */
export function toFilter(draft: SandboxDraft, options: { showBmi: boolean; doctorId: string | null }): SummaryFilter {
  const pro = draft.reportSummaryDataType === ReportSummaryDataType.PRO;
  const bmi = options.showBmi && !sameRange(draft.bmi, defaultDraft.bmi);
  const rand = !sameRange(draft.rand, defaultDraft.rand);
  const procedure = draft.anchor === 'procedure';
  return {
    reportSummaryDataType: draft.reportSummaryDataType,
    formIds: pro ? numbers(draft.formIds) : [],
    anchor: draft.anchor,
    procedureItemIds: procedure ? draft.procedureItemIds : [],
    visitMin: draft.visit[0],
    visitMax: draft.visit[1],
    ageMin: draft.age[0],
    ageMax: draft.age[1],
    startingPainScoreMin: draft.startingPain[0],
    startingPainScoreMax: draft.startingPain[1],
    bmiMin: bmi ? draft.bmi[0] : null,
    bmiMax: bmi ? draft.bmi[1] : null,
    randScoreMin: rand ? draft.rand[0] : null,
    randScoreMax: rand ? draft.rand[1] : null,
    studyGroups: draft.studyGroups,
    bodyLocations: draft.bodyLocations,
    genders: draft.genders,
    occupations: draft.occupations,
    maritalStatus: draft.maritalStatus,
    payorStatus: draft.payorStatus,
    nicotineStatus: numbers(draft.nicotineStatus),
    diseaseStates: numbers(draft.diseaseStates),
    psychaitricStatus: numbers(draft.psychaitricStatus),
    surgicalHistory: numbers(draft.surgicalHistory),
    patientName: draft.patientName.trim() || null,
    perioperativeMessageTemplateIds: draft.perioperativeMessageTemplateIds,
    startDate: draft.startDate.trim() || null,
    endDate: draft.endDate.trim() || null,
    doctorId: options.doctorId,
    postDeploymentAppointments: draft.postDeploymentAppointments,
  };
}

/** Field path (as the server and the schema name it) → validation key. */
export type FieldErrors = Record<string, string>;

/** The same contract the server checks, so most mistakes show before a request is sent. */
export function validateFilter(filter: SummaryFilter): FieldErrors {
  const result = summaryFilterSchema.safeParse(filter);
  return result.success ? {} : fieldErrorsOf(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

/** `formIds.2` and `filter.formIds` both belong to the forms field; the first message of a field wins. */
export function fieldErrorsOf(entries: Iterable<[string, string]>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [path, key] of entries) {
    const field = path.replace(/^filter\./, '').split('.')[0] ?? '';
    if (field && !errors[field]) errors[field] = key;
  }
  return errors;
}

/** The filter panel's collapsible sections, and where each field sits (an error opens its section). */
export const filterSections = ['outcome', 'patients', 'history'] as const;
export type FilterSection = (typeof filterSections)[number];

export const sectionOfField: Record<string, FilterSection> = {
  reportSummaryDataType: 'outcome',
  formIds: 'outcome',
  anchor: 'outcome',
  procedureItemIds: 'outcome',
  visitMin: 'outcome',
  visitMax: 'outcome',
  startDate: 'outcome',
  endDate: 'outcome',
  postDeploymentAppointments: 'outcome',
  ageMin: 'patients',
  ageMax: 'patients',
  startingPainScoreMin: 'patients',
  startingPainScoreMax: 'patients',
  bmiMin: 'patients',
  bmiMax: 'patients',
  randScoreMin: 'patients',
  randScoreMax: 'patients',
  genders: 'patients',
  occupations: 'patients',
  maritalStatus: 'patients',
  payorStatus: 'patients',
  nicotineStatus: 'patients',
  patientName: 'patients',
  patientId: 'patients',
  studyGroups: 'history',
  bodyLocations: 'history',
  diseaseStates: 'history',
  psychaitricStatus: 'history',
  surgicalHistory: 'history',
  perioperativeMessageTemplateIds: 'history',
};

/**
 * The narrowing filters in force, by their label key, so an empty result can say which to loosen.
 * Forms and the data type are left out: they choose what is measured, not who.
 */
export function narrowingFilters(draft: SandboxDraft, showBmi: boolean): string[] {
  const keys: string[] = [];
  const lists: (keyof SandboxDraft)[] = [
    'procedureItemIds',
    'studyGroups',
    'bodyLocations',
    'genders',
    'occupations',
    'maritalStatus',
    'payorStatus',
    'nicotineStatus',
    'diseaseStates',
    'psychaitricStatus',
    'surgicalHistory',
    'perioperativeMessageTemplateIds',
  ];
  if (draft.anchor === 'procedure') keys.push('anchor');
  if (!sameRange(draft.visit, defaultDraft.visit)) keys.push('visitWeeks');
  if (draft.startDate.trim() || draft.endDate.trim()) keys.push('dateRange');
  if (draft.postDeploymentAppointments) keys.push('postDeployment');
  if (!sameRange(draft.age, defaultDraft.age)) keys.push('age');
  if (!sameRange(draft.startingPain, defaultDraft.startingPain)) keys.push('startingPain');
  if (showBmi && !sameRange(draft.bmi, defaultDraft.bmi)) keys.push('bmi');
  if (!sameRange(draft.rand, defaultDraft.rand)) keys.push('rand');
  if (draft.patientName.trim()) keys.push('patientName');
  for (const key of lists) {
    if (key === 'procedureItemIds' && draft.anchor !== 'procedure') continue;
    if ((draft[key] as string[]).length > 0) keys.push(key);
  }
  return keys;
}
