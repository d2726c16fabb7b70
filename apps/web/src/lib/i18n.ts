import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { activityActionLabels, activityAreaLabels, loginResultLabels } from '@pathwell/contracts/activity';
import { LANGUAGES, type Language } from '@pathwell/contracts/constants';
import { menuTitlesEn } from '@pathwell/contracts/menu';
import type { ErrorBody } from '@pathwell/contracts/errors';
import { errorTexts, validationMessages } from '@pathwell/contracts/messages';
import { isMessageKey, renderServerMessage } from '@pathwell/contracts/server-messages';
import enAccount from '../locales/en/account.json';
import enActivity from '../locales/en/activity.json';
import enAppointments from '../locales/en/appointments.json';
import enAuth from '../locales/en/auth.json';
import enCommon from '../locales/en/common.json';
import enCustomForms from '../locales/en/customForms.json';
import enDashboard from '../locales/en/dashboard.json';
import enDates from '../locales/en/dates.json';
import enErrors from '../locales/en/errors.json';
import enInstances from '../locales/en/instances.json';
import enLegal from '../locales/en/legal.json';
import enLists from '../locales/en/lists.json';
import enMedicines from '../locales/en/medicines.json';
import enInterventions from '../locales/en/interventions.json';
import enOutbox from '../locales/en/outbox.json';
import enNotifications from '../locales/en/notifications.json';
import enCommunications from '../locales/en/communications.json';
import enIntakeStaff from '../locales/en/intakeStaff.json';
import enApptDashboard from '../locales/en/apptDashboard.json';
import enBulkIntake from '../locales/en/bulkIntake.json';
import enOnePager from '../locales/en/onePager.json';
import enBodyMap from '../locales/en/bodyMap.json';
import enUserMessages from '../locales/en/userMessages.json';
import enPatientDashboard from '../locales/en/patientDashboard.json';
import enSettings from '../locales/en/settings.json';
import enShell from '../locales/en/shell.json';
import enTerms from '../locales/en/terms.json';
import enPatients from '../locales/en/patients.json';
import enQuestionnaires from '../locales/en/questionnaires.json';
import enUsers from '../locales/en/users.json';
import enProcedureNotes from '../locales/en/procedureNotes.json';
import enPathways from '../locales/en/pathways.json';
import enReportsActivity from '../locales/en/reportsActivity.json';
import enReportsSpotlight from '../locales/en/reportsSpotlight.json';
import enReportsReferrals from '../locales/en/reportsReferrals.json';
import enReportsSandbox from '../locales/en/reportsSandbox.json';
import enReportsPerformance from '../locales/en/reportsPerformance.json';
import enReportsShared from '../locales/en/reportsShared.json';
import enOutreachCampaigns from '../locales/en/outreachCampaigns.json';
import enOutreachHotlists from '../locales/en/outreachHotlists.json';
import enOutreachTemplates from '../locales/en/outreachTemplates.json';
import enOutreachImports from '../locales/en/outreachImports.json';
import esAccount from '../locales/es/account.json';
import esActivity from '../locales/es/activity.json';
import esAppointments from '../locales/es/appointments.json';
import esAuth from '../locales/es/auth.json';
import esCommon from '../locales/es/common.json';
import esCustomForms from '../locales/es/customForms.json';
import esDashboard from '../locales/es/dashboard.json';
import esDates from '../locales/es/dates.json';
import esErrors from '../locales/es/errors.json';
import esInstances from '../locales/es/instances.json';
import esLegal from '../locales/es/legal.json';
import esLists from '../locales/es/lists.json';
import esMedicines from '../locales/es/medicines.json';
import esInterventions from '../locales/es/interventions.json';
import esMenu from '../locales/es/menu.json';
import esOutbox from '../locales/es/outbox.json';
import esNotifications from '../locales/es/notifications.json';
import esCommunications from '../locales/es/communications.json';
import esIntakeStaff from '../locales/es/intakeStaff.json';
import esApptDashboard from '../locales/es/apptDashboard.json';
import esBulkIntake from '../locales/es/bulkIntake.json';
import esOnePager from '../locales/es/onePager.json';
import esBodyMap from '../locales/es/bodyMap.json';
import esUserMessages from '../locales/es/userMessages.json';
import esPatientDashboard from '../locales/es/patientDashboard.json';
import esSettings from '../locales/es/settings.json';
import esShell from '../locales/es/shell.json';
import esTerms from '../locales/es/terms.json';
import esPatients from '../locales/es/patients.json';
import esQuestionnaires from '../locales/es/questionnaires.json';
import esUsers from '../locales/es/users.json';
import esProcedureNotes from '../locales/es/procedureNotes.json';
import esPathways from '../locales/es/pathways.json';
import esReportsActivity from '../locales/es/reportsActivity.json';
import esReportsSpotlight from '../locales/es/reportsSpotlight.json';
import esReportsReferrals from '../locales/es/reportsReferrals.json';
import esReportsSandbox from '../locales/es/reportsSandbox.json';
import esReportsPerformance from '../locales/es/reportsPerformance.json';
import esReportsShared from '../locales/es/reportsShared.json';
import esOutreachCampaigns from '../locales/es/outreachCampaigns.json';
import esOutreachHotlists from '../locales/es/outreachHotlists.json';
import esOutreachTemplates from '../locales/es/outreachTemplates.json';
import esOutreachImports from '../locales/es/outreachImports.json';
import { getStoredLanguage, setStoredLanguage } from './session-storage';

function validationFor(language: Language): Record<string, string> {
  return Object.fromEntries(Object.entries(validationMessages).map(([key, texts]) => [key, texts[language]]));
}

/** Activity areas, actions and sign-in results: the server writes the same labels into CSV exports. */
function activityLabelsFor(language: Language) {
  const pick = (labels: Record<string, Record<Language, string>>) =>
    Object.fromEntries(Object.entries(labels).map(([key, texts]) => [key, texts[language]]));
  return { areas: pick(activityAreaLabels), actions: pick(activityActionLabels), results: pick(loginResultLabels) };
}

/**
 * English texts the contracts already hold (menu labels, validation messages, section 8 error texts)
 * come from there, so the spec's wording lives in one place; Spanish is written in the JSON files.
 */
export const resources = {
  en: {
    common: enCommon,
    customForms: enCustomForms,
    auth: enAuth,
    account: enAccount,
    shell: enShell,
    errors: { ...enErrors, texts: { ...errorTexts } },
    menu: { ...menuTitlesEn },
    validation: validationFor('en'),
    outbox: enOutbox,
    notifications: enNotifications,
    communications: enCommunications,
    intakeStaff: enIntakeStaff,
    apptDashboard: enApptDashboard,
    bulkIntake: enBulkIntake,
    onePager: enOnePager,
    bodyMap: enBodyMap,
    userMessages: enUserMessages,
    activity: { ...enActivity, ...activityLabelsFor('en') },
    appointments: enAppointments,
    dashboard: enDashboard,
    dates: enDates,
    settings: enSettings,
    lists: enLists,
    medicines: enMedicines,
    interventions: enInterventions,
    terms: enTerms,
    legal: enLegal,
    users: enUsers,
    patientDashboard: enPatientDashboard,
    patients: enPatients,
    questionnaires: enQuestionnaires,
    instances: enInstances,
    procedureNotes: enProcedureNotes,
    pathways: enPathways,
    reportsActivity: enReportsActivity,
    reportsSpotlight: enReportsSpotlight,
    reportsReferrals: enReportsReferrals,
    reportsSandbox: enReportsSandbox,
    reportsPerformance: enReportsPerformance,
    reportsShared: enReportsShared,
    outreachCampaigns: enOutreachCampaigns,
    outreachHotlists: enOutreachHotlists,
    outreachTemplates: enOutreachTemplates,
    outreachImports: enOutreachImports,
  },
  es: {
    common: esCommon,
    customForms: esCustomForms,
    auth: esAuth,
    account: esAccount,
    shell: esShell,
    errors: esErrors,
    menu: esMenu,
    validation: validationFor('es'),
    outbox: esOutbox,
    notifications: esNotifications,
    communications: esCommunications,
    intakeStaff: esIntakeStaff,
    apptDashboard: esApptDashboard,
    bulkIntake: esBulkIntake,
    onePager: esOnePager,
    bodyMap: esBodyMap,
    userMessages: esUserMessages,
    activity: { ...esActivity, ...activityLabelsFor('es') },
    appointments: esAppointments,
    dashboard: esDashboard,
    dates: esDates,
    settings: esSettings,
    lists: esLists,
    medicines: esMedicines,
    interventions: esInterventions,
    terms: esTerms,
    legal: esLegal,
    users: esUsers,
    patientDashboard: esPatientDashboard,
    patients: esPatients,
    questionnaires: esQuestionnaires,
    instances: esInstances,
    procedureNotes: esProcedureNotes,
    pathways: esPathways,
    reportsActivity: esReportsActivity,
    reportsSpotlight: esReportsSpotlight,
    reportsReferrals: esReportsReferrals,
    reportsSandbox: esReportsSandbox,
    reportsPerformance: esReportsPerformance,
    reportsShared: esReportsShared,
    outreachCampaigns: esOutreachCampaigns,
    outreachHotlists: esOutreachHotlists,
    outreachTemplates: esOutreachTemplates,
    outreachImports: esOutreachImports,
  },
} as const;

export const namespaces = Object.keys(resources.en) as (keyof typeof resources.en)[];

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function initialLanguage(): Language {
  const stored = getStoredLanguage();
  if (isLanguage(stored)) return stored;
  const browser = typeof navigator === 'undefined' ? '' : navigator.language.toLowerCase();
  return browser.startsWith('es') ? 'es' : 'en';
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...LANGUAGES],
  ns: namespaces,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function followLanguage(language: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
followLanguage(i18n.language);
i18n.on('languageChanged', followLanguage);

export async function changeLanguage(language: Language) {
  setStoredLanguage(language);
  await i18n.changeLanguage(language);
}

/** The current language, as the contracts name it. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : 'en';
}

/** An error answer's message in the user's language: by its key, else a known section 8 text, else as sent. */
export function serverMessageText(body: Pick<ErrorBody, 'error' | 'messageKey' | 'params' | 'msg'>): string | null {
  if (body.messageKey && isMessageKey(body.messageKey))
    return renderServerMessage(body.messageKey, body.params, currentLanguage());
  const text = body.error ?? body.msg;
  return text ? translateServerText(text) : null;
}

/** Section 8 texts that arrive without a key are shown in the user's language when known. */
export function translateServerText(text: string): string {
  const key = (Object.keys(errorTexts) as (keyof typeof errorTexts)[]).find((candidate) => errorTexts[candidate] === text);
  return key ? i18n.t(`errors:texts.${key}`) : text;
}

/** A validation key from a zod schema or the server's `fields`, in the user's language. */
export function translateValidation(key: string | undefined): string | undefined {
  if (!key) return undefined;
  return Object.hasOwn(validationMessages, key) ? i18n.t(`validation:${key}`) : key;
}
