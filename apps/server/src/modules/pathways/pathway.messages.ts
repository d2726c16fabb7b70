import type { FormLanguage } from '@pathwell/contracts/forms';

export interface PathwayMessage {
  subject: string;
  emailBody: string;
  smsBody: string;
}

interface RequestInput {
  firstName: string;
  clinicName: string;
  /** The form's title (a published instrument title is never translated here), or null for the pain journal. */
  formTitle: string | null;
  url: string;
  reminder: boolean;
}

/**
 * A pathway's questionnaire or pain-journal request, and its reminders, in the patient's language.
 * Like every patient message: the clinic and the form's name, nothing about the patient's care.
 */
export function requestMessage(language: FormLanguage, input: RequestInput): PathwayMessage {
  if (language === 'es') {
    const what = input.formTitle ? `el formulario «${input.formTitle}»` : 'su diario del dolor';
    const lead = input.reminder
      ? `Le recordamos que ${input.clinicName} le pide completar ${what}.`
      : `${input.clinicName} le pide completar ${what}.`;
    return {
      subject: input.reminder
        ? `${input.clinicName}: recordatorio de un formulario pendiente`
        : `${input.clinicName}: un formulario para completar`,
      emailBody:
        `Hola, ${input.firstName}:\n\n${lead}\n\nAbra este enlace:\n${input.url}\n\n` +
        'Antes de empezar le pediremos su apellido y su fecha de nacimiento.\n' +
        'Si no esperaba este mensaje, puede ignorarlo.',
      smsBody: `${input.clinicName}: ${input.reminder ? 'recordatorio: ' : ''}complete ${what}: ${input.url} Responda PARAR para no recibir mensajes.`,
    };
  }
  const what = input.formTitle ? `the form "${input.formTitle}"` : 'your pain journal';
  const lead = input.reminder
    ? `A reminder: ${input.clinicName} asks you to complete ${what}.`
    : `${input.clinicName} asks you to complete ${what}.`;
  return {
    subject: input.reminder ? `${input.clinicName}: reminder of a form to complete` : `${input.clinicName}: a form to complete`,
    emailBody:
      `Hello ${input.firstName},\n\n${lead}\n\nOpen this link:\n${input.url}\n\n` +
      'Before you start we will ask for your last name and date of birth.\n' +
      'If you were not expecting this message, you can ignore it.',
    smsBody: `${input.clinicName}: ${input.reminder ? 'reminder: ' : ''}please complete ${what}: ${input.url} Reply STOP to opt out.`,
  };
}

/** An education step: the clinic's own text, as the clinic wrote it. */
export function educationMessage(
  language: FormLanguage,
  input: { firstName: string; clinicName: string; text: string },
): PathwayMessage {
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: información para usted`,
      emailBody: `Hola, ${input.firstName}:\n\n${input.text}\n\n${input.clinicName}`,
      smsBody: `${input.clinicName}: ${input.text} Responda PARAR para no recibir mensajes.`,
    };
  }
  return {
    subject: `${input.clinicName}: information for you`,
    emailBody: `Hello ${input.firstName},\n\n${input.text}\n\n${input.clinicName}`,
    smsBody: `${input.clinicName}: ${input.text} Reply STOP to opt out.`,
  };
}
