import { z } from 'zod';
import type { Language } from './constants';
import type { ValueKey } from './instance-settings';
import { idSchema } from './validation';

/**
 * The open pages /termsandconditions and /privacypolicy (issue #12): each clinic may write its own text
 * in English and Spanish in its instance settings (`legalTexts` group); a language it leaves empty shows
 * Pathwell's default below. See docs/decisions/0033-clinic-terms-and-privacy.md.
 */
export const legalPages = ['terms', 'privacy'] as const;
export type LegalPage = (typeof legalPages)[number];

export const legalTextSettingKeys = {
  terms: { en: 'termsAndConditionsEn', es: 'termsAndConditionsEs' },
  privacy: { en: 'privacyPolicyEn', es: 'privacyPolicyEs' },
} as const satisfies Record<LegalPage, Record<Language, ValueKey>>;

/** Where each page lives in the web app (specification section 2). */
export const legalPagePaths = { terms: '/termsandconditions', privacy: '/privacypolicy' } as const satisfies Record<
  LegalPage,
  string
>;

/** `GET /api/public/legal/{page}?clinic={instance id}`: no clinic, the defaults. */
export const legalTextParamsSchema = z.object({ page: z.enum(legalPages, { error: 'invalid' }) });
export const legalTextQuerySchema = z.object({ clinic: idSchema.optional() });

export const legalTextSchema = z.object({
  page: z.enum(legalPages),
  /** The clinic's name when a clinic was named; null for the defaults. */
  clinicName: z.string().nullable(),
  text: z.object({ en: z.string(), es: z.string() }),
  /** Per language: true when the clinic has no text of its own and the default is sent. */
  isDefault: z.object({ en: z.boolean(), es: z.boolean() }),
});
export type LegalText = z.infer<typeof legalTextSchema>;

/** Paragraphs of a plain text: a blank line (spaces allowed) separates them; single line breaks stay. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

const paragraphs = (...parts: string[]) => parts.join('\n\n');

/**
 * Pathwell's defaults: plain words about what the patient pages do, written for a clinic that has not
 * written its own. They promise nothing the software does not do and claim no certification.
 */
export const defaultLegalTexts: Record<LegalPage, Record<Language, string>> = {
  terms: {
    en: paragraphs(
      'These terms apply when you use the links your clinic sends you to fill in forms, questionnaires and check-in before or after a visit. The clinic uses Pathwell, a web platform, to send these links and to receive your answers.',
      'Using the links. Each link is meant for you, or for a parent, guardian or helper who fills in the forms for you. Before anything personal is shown, you are asked to confirm who you are, for example with your last name and date of birth. Do not share a link with anyone else. If you receive a link that is not meant for you, do not use it and tell the clinic.',
      'Your answers. Please answer as accurately and completely as you can: the clinic relies on what you enter (health history, medications, allergies, pain scores, questionnaire answers) to prepare for your care. If something changes or you notice a mistake, tell the clinic. A signature you give on a form counts as your signature on that document.',
      'Not for emergencies. These pages are not watched around the clock and are not a way to get urgent help. If you think you have a medical emergency, call 911 in the United States, 112 in Spain and the European Union, or your local emergency number, or go to the nearest emergency department.',
      'Your care. Your clinic and its health professionals are responsible for your care and for every decision about it. Scores and summaries worked out from your answers help them; they do not replace their judgement. Questions about your treatment, appointments or bills go to the clinic.',
      'Availability. The pages may sometimes be unavailable, for example during maintenance or a network problem. Your answers are saved as you go; if a page does not work, try again later or contact the clinic, which can also help you fill in the forms at your visit.',
      'Changes. The clinic may update these terms. The version on this page is the one that applies when you use the links.',
      'Questions. Contact your clinic with any question about these terms.',
    ),
    es: paragraphs(
      'Estos términos se aplican cuando usa los enlaces que le envía su clínica para completar formularios, cuestionarios y el registro de llegada antes o después de una visita. La clínica usa Pathwell, una plataforma web, para enviar estos enlaces y recibir sus respuestas.',
      'Uso de los enlaces. Cada enlace es para usted, o para el padre, la madre, el tutor o la persona que le ayude a completar los formularios. Antes de mostrar nada personal se le pide que confirme quién es, por ejemplo con su apellido y su fecha de nacimiento. No comparta un enlace con nadie. Si recibe un enlace que no es para usted, no lo use y avise a la clínica.',
      'Sus respuestas. Responda con la mayor exactitud y de la forma más completa que pueda: la clínica se basa en lo que usted indica (antecedentes de salud, medicamentos, alergias, niveles de dolor, respuestas a cuestionarios) para preparar su atención. Si algo cambia o ve un error, avise a la clínica. La firma que da en un formulario vale como su firma en ese documento.',
      'No es para emergencias. Nadie vigila estas páginas a todas horas y no sirven para pedir ayuda urgente. Si cree que tiene una emergencia médica, llame al 911 en los Estados Unidos, al 112 en España y la Unión Europea o al número de emergencias de su país, o acuda al servicio de urgencias más cercano.',
      'Su atención. Su clínica y sus profesionales de la salud son responsables de su atención y de todas las decisiones sobre ella. Las puntuaciones y los resúmenes calculados a partir de sus respuestas les ayudan; no sustituyen su criterio. Las preguntas sobre su tratamiento, sus citas o sus facturas se dirigen a la clínica.',
      'Disponibilidad. Es posible que las páginas no estén disponibles en algún momento, por ejemplo durante un mantenimiento o por un problema de la red. Sus respuestas se guardan a medida que avanza; si una página no funciona, inténtelo más tarde o comuníquese con la clínica, que también puede ayudarle a completar los formularios en su visita.',
      'Cambios. La clínica puede actualizar estos términos. La versión de esta página es la que se aplica cuando usa los enlaces.',
      'Preguntas. Comuníquese con su clínica si tiene cualquier pregunta sobre estos términos.',
    ),
  },
  privacy: {
    en: paragraphs(
      'This notice explains what information is collected when you use the patient pages your clinic sends you, why, who sees it and what you can do about it. Your clinic is responsible for your information; it uses Pathwell, a web platform, to collect and keep it. The clinic’s own notice of privacy practices also applies and describes your rights under the laws that apply to it.',
      'What is collected. Your name, date of birth and the details used to confirm who you are; your contact details (address, phone numbers, email address) and preferred language; your answers to forms and questionnaires, including health history, medications, allergies, pain scores and the body map of where you feel pain; the signatures you give on agreements; and, for security, details of the device you use, such as its internet address, its browser and when pages were opened.',
      'Why. To provide and plan your care, to schedule and prepare your visits, to contact you about your care, appointments and forms by the phone numbers and email address you give, and to keep the records the clinic is required to keep. Device details are used only to protect your information, for example to stop repeated wrong guesses at your identity and to look into misuse.',
      'Who sees it. Your clinic’s staff, when their work needs it. Each clinic’s information is kept apart from every other clinic’s, and one clinic cannot see another’s patients. Outside the clinic, your information is shared only as the clinic’s privacy practices and the law allow, for example with your insurance for billing or with other providers involved in your care.',
      'Advertising and marketing. Pathwell does not ask for, and does not use your information for, advertising or marketing consent. These pages show no advertising.',
      'How long it is kept. As long as your clinic’s records policy and the law require. Medical records must often be kept for a number of years after your last visit.',
      'Your rights. You can ask your clinic to see your information, to have a copy of it and to correct anything that is wrong or incomplete. You can ask the clinic to stop sending you emails or text messages; you can also reply STOP to a text message. Depending on where you live, the law may give you other rights, such as limiting some uses of your information or complaining to the authority that oversees health privacy; the clinic can tell you about them.',
      'Security. Information travels over encrypted connections; staff reach it only after signing in, and only what their role allows; each clinic’s data is kept apart; and views and changes of patient information are recorded in an audit log. No system is perfectly secure: if the clinic learns of a breach that affects you, it will tell you as the law requires.',
      'Questions. Contact your clinic with any question about this notice or about your information.',
    ),
    es: paragraphs(
      'Este aviso explica qué información se recoge cuando usa las páginas para pacientes que le envía su clínica, para qué, quién la ve y qué puede hacer usted al respecto. Su clínica es responsable de su información; usa Pathwell, una plataforma web, para recogerla y guardarla. También se aplica el aviso de prácticas de privacidad de la propia clínica, que describe sus derechos según las leyes que le son aplicables.',
      'Qué se recoge. Su nombre, su fecha de nacimiento y los datos que sirven para confirmar quién es; sus datos de contacto (dirección, números de teléfono, correo electrónico) y su idioma preferido; sus respuestas a formularios y cuestionarios, incluidos los antecedentes de salud, los medicamentos, las alergias, los niveles de dolor y el mapa del cuerpo donde marca dónde le duele; las firmas que da en los acuerdos; y, por seguridad, datos del dispositivo que usa, como su dirección de internet, su navegador y cuándo se abrieron las páginas.',
      'Para qué. Para prestar y planificar su atención, programar y preparar sus visitas, comunicarse con usted sobre su atención, sus citas y sus formularios por los teléfonos y el correo electrónico que usted proporcione, y conservar los registros que la clínica está obligada a conservar. Los datos del dispositivo se usan solo para proteger su información, por ejemplo para frenar intentos repetidos de adivinar su identidad y para investigar usos indebidos.',
      'Quién la ve. El personal de su clínica, cuando su trabajo lo requiere. La información de cada clínica se mantiene separada de la de las demás, y ninguna clínica puede ver los pacientes de otra. Fuera de la clínica, su información solo se comparte en la medida en que lo permitan las prácticas de privacidad de la clínica y la ley, por ejemplo con su seguro para la facturación o con otros proveedores que participan en su atención.',
      'Publicidad y marketing. Pathwell no le pide consentimiento para publicidad ni marketing, y no usa su información con ese fin. Estas páginas no muestran publicidad.',
      'Cuánto tiempo se conserva. El tiempo que exijan la política de registros de su clínica y la ley. Los historiales médicos a menudo deben conservarse varios años después de la última visita.',
      'Sus derechos. Puede pedir a su clínica ver su información, obtener una copia y corregir lo que sea incorrecto o esté incompleto. Puede pedir a la clínica que deje de enviarle correos electrónicos o mensajes de texto; también puede responder STOP o PARAR a un mensaje de texto. Según donde viva, la ley puede darle otros derechos, como limitar algunos usos de su información o presentar una reclamación ante la autoridad que supervisa la privacidad de la salud; la clínica puede informarle sobre ellos.',
      'Seguridad. La información viaja por conexiones cifradas; el personal solo accede a ella después de iniciar sesión y solo a lo que su función le permite; los datos de cada clínica se mantienen separados; y las consultas y los cambios de la información de los pacientes quedan registrados en un registro de auditoría. Ningún sistema es totalmente seguro: si la clínica tiene conocimiento de una brecha que le afecte, se lo comunicará como exige la ley.',
      'Preguntas. Comuníquese con su clínica si tiene cualquier pregunta sobre este aviso o sobre su información.',
    ),
  },
};
