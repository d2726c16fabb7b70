import type { FormLanguage } from '@pathwell/contracts/forms';

interface IntakeMessageInput {
  firstName: string;
  clinicName: string;
  /** The appointment's day and time in clinic time. */
  when: string;
  url: string;
}

/**
 * The intake link by email and by text, in the patient's language. Nothing about the visit's reason or
 * the patient's health: a message can be read by whoever holds the phone.
 */
export function intakeMessage(language: FormLanguage, input: IntakeMessageInput) {
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: complete su registro antes de la cita`,
      emailBody:
        `Hola, ${input.firstName}:\n\n` +
        `Tiene una cita en ${input.clinicName} el ${input.when}. Complete su registro antes de llegar ` +
        '(documentos, historial, dolor y cuestionarios) desde su teléfono:\n' +
        `${input.url}\n\n` +
        'Antes de empezar le pediremos su apellido y su fecha de nacimiento. Sus respuestas se guardan mientras avanza.\n' +
        'Si no esperaba este mensaje, puede ignorarlo.',
      smsBody: `${input.clinicName}: complete su registro para la cita del ${input.when}: ${input.url} Responda PARAR para no recibir mensajes.`,
    };
  }
  return {
    subject: `${input.clinicName}: check in before your visit`,
    emailBody:
      `Hello ${input.firstName},\n\n` +
      `You have an appointment at ${input.clinicName} on ${input.when}. Please complete your check-in before you ` +
      'arrive (paperwork, history, pain and questionnaires) from your phone:\n' +
      `${input.url}\n\n` +
      'Before you start we will ask for your last name and date of birth. Your answers are saved as you go.\n' +
      'If you were not expecting this message, you can ignore it.',
    smsBody: `${input.clinicName}: please check in for your visit on ${input.when}: ${input.url} Reply STOP to opt out.`,
  };
}
