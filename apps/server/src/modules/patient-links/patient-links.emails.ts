import type { FormLanguage } from '@pathwell/contracts/forms';
import { messageDate } from '@pathwell/contracts/message-dates';

interface LinkEmailInput {
  firstName: string;
  clinicName: string;
  /** The form's title in the email's language (an instrument's published title, never translated here). */
  formTitle: string;
  url: string;
  expiresAt: Date;
  timeZone: string;
}

/** The patient's questionnaire email, in the link's language. No health detail beyond the form's name. */
export function linkEmail(language: FormLanguage, input: LinkEmailInput): { subject: string; body: string } {
  const until = messageDate(input.expiresAt, input.timeZone, language);
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: un formulario para completar`,
      body:
        `Hola, ${input.firstName}:\n\n` +
        `${input.clinicName} le pide que complete el formulario «${input.formTitle}».\n\n` +
        `Abra este enlace (válido hasta el ${until}):\n${input.url}\n\n` +
        'Antes de ver el formulario le pediremos su apellido y su fecha de nacimiento.\n' +
        'Si no esperaba este mensaje, puede ignorarlo.',
    };
  }
  return {
    subject: `${input.clinicName}: a form to complete`,
    body:
      `Hello ${input.firstName},\n\n` +
      `${input.clinicName} asks you to complete the form "${input.formTitle}".\n\n` +
      `Open this link (valid until ${until}):\n${input.url}\n\n` +
      'Before the form opens we will ask for your last name and date of birth.\n' +
      'If you were not expecting this message, you can ignore it.',
  };
}
