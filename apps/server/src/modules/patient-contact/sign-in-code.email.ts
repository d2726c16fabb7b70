import type { FormLanguage } from '@pathwell/contracts/forms';

/**
 * The identity code of decision 0035: the code and the clinic, nothing about the patient's care. The
 * code is in the body only: a subject shows on a locked phone's notifications (issue #24 §5).
 */
export function linkCodeEmail(language: FormLanguage, input: { code: string; clinicName: string }) {
  if (language === 'es') {
    return {
      subject: `${input.clinicName}: su código para abrir sus formularios`,
      body:
        `Su código para abrir sus formularios de ${input.clinicName} es: ${input.code}\n\n` +
        'Vale durante 10 minutos y solo una vez. Si no lo ha pedido usted, puede ignorar este mensaje.',
    };
  }
  return {
    subject: `${input.clinicName}: your sign-in code`,
    body:
      `Your code to open your ${input.clinicName} forms is: ${input.code}\n\n` +
      'It works for 10 minutes and only once. If you did not ask for it, you can ignore this message.',
  };
}
