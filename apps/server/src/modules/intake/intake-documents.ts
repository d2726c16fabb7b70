import type { LocalizedText } from '@pathwell/contracts/forms';

/**
 * The new-patient agreement's default wording, used when a clinic has not uploaded its own PDF (and
 * shown beside it when it has). It is an office agreement, not clinical content: consent to evaluation,
 * financial responsibility, the privacy notice and contact by the channels the patient gives.
 */
export const defaultAgreement: { title: LocalizedText; text: LocalizedText } = {
  title: { en: 'New patient agreement', es: 'Acuerdo para pacientes nuevos' },
  text: {
    en: [
      'I agree to be evaluated and treated by the providers of this clinic. I understand that no result has been promised to me, and that I may ask questions about any test or treatment before it is done and refuse it.',
      'I am responsible for the charges for my care that my insurance does not pay, including copays, coinsurance and deductibles. I authorize the clinic to bill my insurance and to receive payment from it directly.',
      "I have been offered the clinic's notice of privacy practices, which explains how my health information is used and shared and what my rights are.",
      'The clinic may contact me about my care, appointments and forms by the phone numbers and email address I give. I can ask to stop text messages at any time by replying STOP.',
      'This agreement stays in effect until I withdraw it in writing or it expires, when the clinic will ask me to sign it again.',
    ].join('\n\n'),
    es: [
      'Acepto ser evaluado(a) y tratado(a) por los proveedores de esta clínica. Entiendo que no se me ha prometido ningún resultado y que puedo hacer preguntas sobre cualquier prueba o tratamiento antes de que se realice, y rechazarlo.',
      'Soy responsable de los cargos por mi atención que mi seguro no pague, incluidos copagos, coseguros y deducibles. Autorizo a la clínica a facturar a mi seguro y a recibir el pago directamente.',
      'Se me ha ofrecido el aviso de prácticas de privacidad de la clínica, que explica cómo se usa y comparte mi información de salud y cuáles son mis derechos.',
      'La clínica puede comunicarse conmigo sobre mi atención, citas y formularios por los números de teléfono y el correo electrónico que proporcione. Puedo pedir que no me envíen mensajes de texto en cualquier momento respondiendo STOP o PARAR.',
      'Este acuerdo sigue vigente hasta que lo retire por escrito o venza; entonces la clínica me pedirá que lo firme de nuevo.',
    ].join('\n\n'),
  },
};

/**
 * The injection consent's default wording (decision 0036), used until a clinic writes its own in the
 * instance settings. It records consent to a discussion that took place; it names no procedure, risk or
 * outcome, because those are the provider's to explain and the clinic's to write.
 */
export const defaultShotConsent: { title: LocalizedText; text: LocalizedText } = {
  title: { en: 'Consent for injection', es: 'Consentimiento para inyección' },
  text: {
    en: [
      'My provider has explained the injection that is recommended for me, why it is recommended, what it involves, its possible risks and benefits, and the other options I have, including not having it.',
      'I have had the chance to ask questions, and my questions have been answered.',
      'I have told the clinic about my allergies, the medicines I take (including blood thinners), and whether I may be pregnant.',
      'I agree to have the injection. I understand that I may change my mind and withdraw this consent at any time before it is done.',
    ].join('\n\n'),
    es: [
      'Mi proveedor me ha explicado la inyección que se me recomienda, por qué se recomienda, en qué consiste, sus posibles riesgos y beneficios, y las otras opciones que tengo, incluida la de no hacérmela.',
      'He tenido la oportunidad de hacer preguntas y me las han respondido.',
      'He informado a la clínica sobre mis alergias, los medicamentos que tomo (incluidos los anticoagulantes) y si podría estar embarazada.',
      'Acepto que se me aplique la inyección. Entiendo que puedo cambiar de opinión y retirar este consentimiento en cualquier momento antes de que se realice.',
    ].join('\n\n'),
  },
};
