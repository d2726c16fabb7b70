import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { formLanguages, type FormLanguage } from '@pathwell/contracts/forms';
import { validationMessages } from '@pathwell/contracts/messages';
import enPatient from '../locales/en/patient.json';
import esPatient from '../locales/es/patient.json';
import enIntake from '../locales/en/intake.json';
import esIntake from '../locales/es/intake.json';
import enBodyMap from '../locales/en/bodyMap.json';
import esBodyMap from '../locales/es/bodyMap.json';

/**
 * The patient bundle's own i18n: only the `patient` texts and the validation messages of the
 * contracts, so none of the staff namespaces travel to a patient's phone.
 */
function validationFor(language: FormLanguage): Record<string, string> {
  return Object.fromEntries(Object.entries(validationMessages).map(([key, texts]) => [key, texts[language]]));
}

const patientResources = {
  en: { patient: enPatient, intake: enIntake, bodyMap: enBodyMap, validation: validationFor('en') },
  es: { patient: esPatient, intake: esIntake, bodyMap: esBodyMap, validation: validationFor('es') },
} as const;

function browserLanguage(): FormLanguage {
  const browser = typeof navigator === 'undefined' ? '' : navigator.language.toLowerCase();
  return browser.startsWith('es') ? 'es' : 'en';
}

export const patientI18n = i18next.createInstance();

void patientI18n.use(initReactI18next).init({
  resources: patientResources,
  lng: browserLanguage(),
  fallbackLng: 'en',
  supportedLngs: [...formLanguages],
  ns: ['patient', 'intake', 'bodyMap', 'validation'],
  defaultNS: 'patient',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function followLanguage(language: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
followLanguage(patientI18n.language);
patientI18n.on('languageChanged', followLanguage);
