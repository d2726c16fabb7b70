import { appointmentStatusLabels, type AppointmentStatusCode } from './appointments';
import type { Language } from './constants';
import { errorTexts, isValidationMessageKey, validationMessages, type ValidationMessageKey } from './messages';

/**
 * Every message the server puts in an error answer, in both languages (issue #16 §3). The server sends
 * the key and its parameters (`messageKey`, `params`) beside the English text (`error`, for API users);
 * the web shows `renderServerMessage(key, params, language)`. `{{name}}` marks a parameter; numbers are
 * written the way the language writes them, and the parameters named in `statusParams` are appointment
 * status codes, shown by their label.
 */
interface ServerMessage {
  en: string;
  es: string;
  statusParams?: readonly string[];
}

export const serverMessages = {
  // Generic answers of the error plugin.
  requestInvalid: { en: 'Invalid input', es: 'Los datos enviados no son válidos' },
  internalError: { en: 'Internal error', es: 'Error interno' },
  serviceUnavailable: {
    en: 'Service unavailable, try again shortly',
    es: 'Servicio no disponible; inténtelo de nuevo en unos momentos',
  },
  tooManyRequests: { en: 'Too many requests; try again later', es: 'Demasiadas solicitudes; inténtelo más tarde' },
  requestTooLarge: { en: 'The request is too large', es: 'La solicitud es demasiado grande' },
  mediaTypeUnsupported: { en: 'This content type is not accepted', es: 'Este tipo de contenido no se acepta' },
  notFound: { en: 'Not found', es: 'No encontrado' },
  notAllowed: { en: 'You are not allowed to do this', es: 'No tiene permiso para hacer esto' },

  // Records that are missing, or not visible to the caller (the same answer on purpose).
  allergyNotFound: { en: 'Allergy not found', es: 'No se ha encontrado la alergia' },
  interventionNotFound: { en: 'Procedure record not found', es: 'No se ha encontrado el registro del procedimiento' },
  plannedProcedureNotFound: { en: 'Planned procedure not found', es: 'No se ha encontrado el procedimiento previsto' },
  appointmentNotFound: { en: 'Appointment not found', es: 'No se ha encontrado la cita' },
  clinicNotFound: { en: 'Clinic not found', es: 'No se ha encontrado la clínica' },
  customFormNotFound: { en: 'Custom form not found', es: 'No se ha encontrado el formulario personalizado' },
  customFormVersionNotFound: {
    en: 'Custom form version not found',
    es: 'No se ha encontrado la versión del formulario personalizado',
  },
  entryNotFound: { en: 'Entry not found', es: 'No se ha encontrado la entrada' },
  fileNotFound: { en: 'File not found', es: 'No se ha encontrado el archivo' },
  fileSlotNotFound: { en: 'File slot not found', es: 'No se ha encontrado el espacio para el archivo' },
  formResponseNotFound: { en: 'Form response not found', es: 'No se ha encontrado la respuesta del formulario' },
  importedWordingNotFound: { en: 'Imported wording not found', es: 'No se ha encontrado el texto importado' },
  instanceNotFound: { en: 'Instance not found', es: 'No se ha encontrado la instancia' },
  linkNotFound: { en: 'Link not found', es: 'No se ha encontrado el enlace' },
  messageNotFound: { en: 'Message not found', es: 'No se ha encontrado el mensaje' },
  noteNotFound: { en: 'Note not found', es: 'No se ha encontrado la nota' },
  pageNotFound: { en: 'Page not found', es: 'No se ha encontrado la página' },
  patientNotFound: { en: 'Patient not found', es: 'No se ha encontrado el paciente' },
  questionnaireNotFound: { en: 'Questionnaire not found', es: 'No se ha encontrado el cuestionario' },
  questionnaireResponseNotFound: {
    en: 'QuestionnaireResponse not found',
    es: 'No se ha encontrado la respuesta al cuestionario',
  },
  recordNotFound: { en: 'Record not found', es: 'No se ha encontrado el registro' },
  sessionNotFound: { en: 'Session not found', es: 'No se ha encontrado la sesión' },
  templateNotFound: { en: 'Template not found', es: 'No se ha encontrado la plantilla' },
  userNotFound: { en: 'User not found', es: 'No se ha encontrado el usuario' },
  pathwayNotFound: { en: 'Pathway not found', es: 'No se ha encontrado la vía asistencial' },
  pathwayEnrolmentNotFound: {
    en: 'Pathway enrolment not found',
    es: 'No se ha encontrado la inscripción en la vía asistencial',
  },
  pathwayStepNotFound: { en: 'Pathway step not found', es: 'No se ha encontrado el paso de la vía asistencial' },
  pathwayAlreadyEnrolled: {
    en: 'The patient is already following this pathway',
    es: 'El paciente ya sigue esta vía asistencial',
  },
  pathwayInactive: {
    en: 'This pathway is switched off; switch it on before enrolling patients',
    es: 'Esta vía asistencial está desactivada; actívela antes de inscribir pacientes',
  },
  pathwayEnrolmentEnded: {
    en: 'This enrolment has already ended',
    es: 'Esta inscripción ya ha terminado',
  },
  pathwayTaskNotOpen: {
    en: 'Only a staff task that has been raised and is not yet done can be marked done',
    es: 'Solo se puede marcar como hecha una tarea del personal que se haya creado y no esté hecha',
  },
  roomNotInClinic: { en: 'Room not found in this clinic', es: 'No se ha encontrado la sala en esta clínica' },
  bodyLocationNotInClinic: {
    en: 'Body location not found in this clinic',
    es: 'No se ha encontrado la localización corporal en esta clínica',
  },
  appointmentTypeNotInClinic: {
    en: 'Appointment type not found in this clinic',
    es: 'No se ha encontrado el tipo de cita en esta clínica',
  },
  doctorNotInClinic: { en: 'Doctor not found in this clinic', es: 'No se ha encontrado el médico en esta clínica' },
  organisationMissing: { en: 'This parent organisation does not exist', es: 'Esta organización principal no existe' },

  // Signing in and sessions.
  loginFailed: { en: errorTexts.loginFailed, es: 'No se pudo iniciar sesión. Compruebe el correo electrónico y la contraseña' },
  signInRequired: { en: 'Sign-in required', es: 'Debe iniciar sesión' },
  tokenNotValid: { en: 'Token is not valid', es: 'El token no es válido' },
  codeNotValid: { en: 'The code is not valid or has expired', es: 'El código no es válido o ha caducado' },
  identityAgain: { en: 'Please confirm your identity again', es: 'Vuelva a confirmar su identidad' },
  signInLocked: {
    en: 'Too many failed sign-in attempts. Please try again later.',
    es: 'Demasiados intentos fallidos de inicio de sesión. Inténtelo de nuevo más tarde.',
  },
  noEmailOnFile: {
    en: 'The clinic has no email address for you. Please use your last name and date of birth, or ask the clinic.',
    es: 'La clínica no tiene su correo electrónico. Use su apellido y su fecha de nacimiento, o pregunte en la clínica.',
  },
  codeTooSoon: {
    en: 'A code was sent a moment ago. Please wait a minute before asking for another.',
    es: 'Se acaba de enviar un código. Espere un minuto antes de pedir otro.',
  },
  codeTooMany: {
    en: 'Too many codes were sent for this link. Please use your last name and date of birth, or ask the clinic.',
    es: 'Se han enviado demasiados códigos para este enlace. Use su apellido y su fecha de nacimiento, o pregunte en la clínica.',
  },
  accountClosed: {
    en: 'This patient closed their account. Reopen it from the patient list before sending anything.',
    es: 'Este paciente cerró su cuenta. Vuelva a abrirla desde la lista de pacientes antes de enviar nada.',
  },
  closeAccountTooMany: {
    en: 'A confirmation email was sent several times today. Please use the latest one, or call the clinic.',
    es: 'Hoy se envió varias veces un correo de confirmación. Use el más reciente o llame a la clínica.',
  },
  accessRequestsTooMany: {
    en: 'The clinic already has your request. Please wait for them to contact you, or call the clinic.',
    es: 'La clínica ya tiene su solicitud. Espere a que se comuniquen con usted o llame a la clínica.',
  },
  identityLocked: {
    en: 'Too many answers did not match. Please try again in {{minutes}} minutes, or call the clinic.',
    es: 'Demasiadas respuestas no coincidían. Vuelva a intentarlo dentro de {{minutes}} minutos o llame a la clínica.',
  },
  pinLocked: {
    en: 'Too many wrong PIN attempts. Please try again later.',
    es: 'Demasiados intentos con un PIN incorrecto. Inténtelo de nuevo más tarde.',
  },
  accountAwaitingAccess: {
    en: 'Your account is waiting for a clinic administrator to give you access.',
    es: 'Su cuenta está a la espera de que un administrador de la clínica le dé acceso.',
  },
  emailNotConfirmed: {
    en: 'Please confirm your email address first; we sent you a link.',
    es: 'Confirme primero su dirección de correo electrónico; le hemos enviado un enlace.',
  },
  clinicInactive: {
    en: 'This clinic is no longer active in Pathwell. Please contact your administrator.',
    es: 'Esta clínica ya no está activa en Pathwell. Póngase en contacto con su administrador.',
  },
  clinicSwitchedOff: { en: 'This clinic is switched off', es: 'Esta clínica está desactivada' },
  notInClinic: { en: 'You do not belong to this clinic', es: 'Usted no pertenece a esta clínica' },
  accountWithoutClinic: { en: 'Your account has no clinic yet', es: 'Su cuenta aún no tiene ninguna clínica' },
  parentOnly: {
    en: 'Only parent users have the all-clinics view',
    es: 'Solo los usuarios principales tienen la vista de todas las clínicas',
  },
  oneClinicNeeded: {
    en: 'This page needs one clinic; choose a clinic first',
    es: 'Esta página necesita una clínica; elija primero una clínica',
  },
  clinicIdHeaderInvalid: { en: 'ClinicId header is not valid', es: 'La cabecera ClinicId no es válida' },
  linkInvalidOrExpired: { en: 'This link is not valid or has expired', es: 'Este enlace no es válido o ha caducado' },
  confirmationLinkInvalid: {
    en: 'This confirmation link is not valid or has expired',
    es: 'Este enlace de confirmación no es válido o ha caducado',
  },
  currentPasswordWrong: { en: 'The current password is not correct', es: 'La contraseña actual no es correcta' },
  currentPasswordForEmail: {
    en: 'Enter your current password to change your email',
    es: 'Introduzca su contraseña actual para cambiar su correo electrónico',
  },

  // Users, clinics and instances.
  roleAboveOwn: { en: 'You cannot give a role above your own', es: 'No puede asignar un rol superior al suyo' },
  userNotManageable: { en: 'You are not allowed to change this user', es: 'No tiene permiso para cambiar este usuario' },
  ownRole: { en: 'You cannot change your own role', es: 'No puede cambiar su propio rol' },
  ownAccountOff: { en: 'You cannot switch off your own account', es: 'No puede desactivar su propia cuenta' },
  ownAccountDelete: { en: 'You cannot delete your own account', es: 'No puede eliminar su propia cuenta' },
  emailInUse: { en: 'Another account uses this email', es: 'Otra cuenta usa este correo electrónico' },
  accountAlreadySetUp: {
    en: 'This user has already set up their account or is switched off',
    es: 'Este usuario ya ha configurado su cuenta o está desactivado',
  },
  pinAdminsOnly: { en: 'Only administrators have a PIN', es: 'Solo los administradores tienen PIN' },
  clinicsNotYours: { en: 'You can only add clinics you work in', es: 'Solo puede añadir clínicas en las que trabaja' },
  instancesNotYours: {
    en: 'You can only group instances you work in',
    es: 'Solo puede agrupar instancias en las que trabaja',
  },
  instanceRequired: { en: 'Choose at least one instance', es: 'Elija al menos una instancia' },
  ownInstanceOff: {
    en: 'You cannot switch off the instance your own account belongs to',
    es: 'No puede desactivar la instancia a la que pertenece su propia cuenta',
  },
  organisationHasOtherInstances: {
    en: 'This organisation also holds instances you do not work in',
    es: 'Esta organización también incluye instancias en las que usted no trabaja',
  },
  systemManagerOnly: {
    en: 'Only a System Manager can change the organisation or switch an instance off',
    es: 'Solo un System Manager puede cambiar la organización o desactivar una instancia',
  },
  settingInvalid: { en: 'Setting {{setting}} is not valid', es: 'El ajuste {{setting}} no es válido' },
  configurationValuesCount: {
    en: 'configurationValues must hold {{count}} values in catalogue order',
    es: 'configurationValues debe contener {{count}} valores en el orden del catálogo',
  },
  enumerationTypeUnknown: {
    en: 'Unknown enumeration type "{{type}}". Valid types: {{types}}',
    es: 'Tipo de enumeración desconocido «{{type}}». Tipos válidos: {{types}}',
  },

  // Appointments.
  doctorsBookOwn: { en: 'Doctors book only their own appointments', es: 'Los médicos solo reservan sus propias citas' },
  roomBooked: {
    en: 'The room is already booked for an overlapping time',
    es: 'La sala ya está reservada en un horario que se solapa',
  },
  doctorBooked: {
    en: 'The doctor already has an appointment that overlaps this time',
    es: 'El médico ya tiene una cita que se solapa con este horario',
  },
  delayOnlyUpcoming: {
    en: 'Only an upcoming appointment can have its check-in delayed',
    es: 'Solo se puede retrasar el registro de llegada de una cita próxima',
  },
  moveOnlyUpcoming: { en: 'Only an upcoming appointment can be moved', es: 'Solo se puede mover una cita próxima' },
  appointmentClosed: {
    en: 'A completed or no-show appointment can no longer be changed',
    es: 'Una cita completada o a la que el paciente no se presentó ya no se puede cambiar',
  },
  completedNotDeletable: {
    en: 'A completed appointment is part of the record and cannot be deleted',
    es: 'Una cita completada forma parte del historial y no se puede eliminar',
  },
  statusChangeNotAllowed: {
    en: 'An appointment that is {{from}} cannot become {{to}}',
    es: 'Una cita en estado «{{from}}» no puede pasar a «{{to}}»',
    statusParams: ['from', 'to'],
  },
  noShowBeforeStart: {
    en: 'An appointment can be marked as a no-show only after its start time',
    es: 'Una cita solo se puede marcar como «No se presentó» después de su hora de inicio',
  },
  appointmentExportTooLarge: {
    en: 'More than {{max}} appointments match; narrow the filters',
    es: 'Coinciden más de {{max}} citas; acote los filtros',
  },
  activityExportTooLarge: {
    en: 'This export would hold more than {{max}} entries. Narrow the dates or filters and export again.',
    es: 'Esta exportación tendría más de {{max}} entradas. Acote las fechas o los filtros y vuelva a exportar.',
  },

  // Patients, notes, forms and links.
  noteAuthorOnly: {
    en: 'Only the author or an Admin may change this note',
    es: 'Solo el autor o un administrador pueden cambiar esta nota',
  },
  fieldsInvalid: { en: 'Some fields are not valid', es: 'Algunos campos no son válidos' },
  valuesInvalid: { en: 'Some values are not valid', es: 'Algunos valores no son válidos' },
  answersNeedAttention: { en: 'Some answers need attention', es: 'Algunas respuestas necesitan atención' },
  submissionKeyUsed: { en: 'This submission key was already used', es: 'Esta clave de envío ya se ha utilizado' },
  checkinNotToday: {
    en: 'Check-in opens on the day of the appointment',
    es: 'El registro de llegada se abre el día de la cita',
  },
  intakeStepFinished: {
    en: 'This step is finished and can no longer be changed',
    es: 'Este paso está terminado y ya no se puede cambiar',
  },
  intakeStepNotFinished: {
    en: 'The patient has not finished this step of the intake yet',
    es: 'El paciente aún no ha terminado este paso del registro',
  },
  nobodyToNotify: {
    en: 'None of these patients can be sent an intake link',
    es: 'A ninguno de estos pacientes se le puede enviar un enlace de registro',
  },
  formArchived: {
    en: 'This form is archived and cannot be sent',
    es: 'Este formulario está archivado y no se puede enviar',
  },
  formLanguageMissing: {
    en: 'This form is not available in this language',
    es: 'Este formulario no está disponible en este idioma',
  },
  wordingInvalid: { en: 'The wording is not a valid definition', es: 'El texto no es una definición válida' },
  wordingMismatch: {
    en: 'The wording does not match the structure of the form',
    es: 'El texto no coincide con la estructura del formulario',
  },
  // A used, expired, revoked or locked patient link: the text is the LinkStatus itself (errors.ts); the
  // patient page shows its own page for each status, in the patient's language.
  linkGone: { en: '{{status}}', es: '{{status}}' },

  // Files.
  textWithNul: { en: 'Text may not contain the NUL character', es: 'El texto no puede contener el carácter NUL' },
  jsonTooDeep: {
    en: 'The request nests more than {{limit}} levels deep',
    es: 'La solicitud tiene más de {{limit}} niveles de anidamiento',
  },
  fileEmpty: { en: 'The file is empty', es: 'El archivo está vacío' },
  fileLargerThan: { en: 'The file is larger than {{megabytes}} MB', es: 'El archivo supera los {{megabytes}} MB' },
  fileTypesAccepted: { en: 'Accepted here: {{types}}', es: 'Aquí se aceptan: {{types}}' },
  multipartRequired: { en: 'Send the file as multipart/form-data', es: 'Envíe el archivo como multipart/form-data' },
  uploadUnreadable: {
    en: 'The upload could not be read; send the file as multipart/form-data',
    es: 'No se pudo leer el archivo enviado; envíelo como multipart/form-data',
  },
  // Issue #11: messages, notifications and support
  requestSignatureInvalid: {
    en: 'The request signature is not valid',
    es: 'La firma de la solicitud no es válida',
  },
  messageNotResendable: {
    en: 'Only a failed, undelivered or stored message can be sent again',
    es: 'Solo se puede volver a enviar un mensaje fallido, no entregado o guardado',
  },
  noMessageProvider: {
    en: 'No provider is configured for {{channel}}; the message stays in the outbox',
    es: 'No hay un proveedor configurado para {{channel}}; el mensaje sigue en la bandeja de salida',
  },
  templateInactive: {
    en: 'This template is switched off; switch it on to send its messages',
    es: 'Esta plantilla está desactivada; actívela para enviar sus mensajes',
  },
  supportEmailNotSet: {
    en: 'No support address is configured (SUPPORT_EMAIL); the request stays in the outbox',
    es: 'No hay una dirección de soporte configurada (SUPPORT_EMAIL); la solicitud sigue en la bandeja de salida',
  },
  noContactForChannel: {
    en: 'The patient has no {{channel}} to send to',
    es: 'El paciente no tiene {{channel}} al que enviar',
  },
  // Staff messages (issue #11 §5)
  messageToSelf: { en: 'You cannot send messages to yourself', es: 'No puede enviarse mensajes a sí mismo' },
  // Procedure notes (issue #13, decision 0040)
  procedureNoteNotFound: { en: 'Procedure note not found', es: 'No se ha encontrado la nota de procedimiento' },
  procedureNoteSigned: {
    en: 'This procedure note is signed and can no longer be changed; amend it instead',
    es: 'Esta nota de procedimiento está firmada y ya no se puede cambiar; enmiéndela',
  },
  procedureNoteNotSigned: {
    en: 'Only a signed procedure note can be printed or amended',
    es: 'Solo se puede imprimir o enmendar una nota de procedimiento firmada',
  },
  procedureNoteNewerVersion: {
    en: 'A newer version of this procedure note exists; open the latest one',
    es: 'Existe una versión más reciente de esta nota de procedimiento; abra la última',
  },
  procedureNoteSignOwn: {
    en: 'Only the provider named on the note may sign it',
    es: 'Solo el profesional que figura en la nota puede firmarla',
  },
  placeholdersUnknown: {
    en: 'Unknown placeholders: {{names}}',
    es: 'Marcadores desconocidos: {{names}}',
  },
  procedureNoteUnfilled: {
    en: 'Complete the note before signing it; still to be written: {{names}}',
    es: 'Complete la nota antes de firmarla; falta por escribir: {{names}}',
  },
  procedureNoteMedicinesDiffer: {
    en: 'The note must state the medicines given as the procedure record does: “{{medicines}}”. Put this line in the note, or correct the record.',
    es: 'La nota debe indicar los medicamentos administrados como el registro del procedimiento: «{{medicines}}». Ponga esta línea en la nota o corrija el registro.',
  },
  // Encounter import and code groups (issue #15 §1, decision 0050)
  codeGroupNotFound: { en: 'Code group not found', es: 'No se ha encontrado el grupo de códigos' },
  encounterImportNotFound: { en: 'Encounter import not found', es: 'No se ha encontrado la importación de visitas' },
  // Hot lists (issue #15 §4, decision 0052)
  hotlistNotFound: { en: 'Hot list not found', es: 'No se ha encontrado la lista de llamadas' },
  hotlistEntryNotFound: { en: 'Hot-list patient not found', es: 'No se ha encontrado el paciente de la lista de llamadas' },
  hotlistNotClaimed: {
    en: 'You are not calling this patient now; ask for the next patient',
    es: 'No está llamando a este paciente ahora; pida el siguiente paciente',
  },
  hotlistFinished: { en: 'This hot list is finished', es: 'Esta lista de llamadas ha terminado' },
  // Campaigns (issue #15 §3, decision 0051).
  campaignNotFound: { en: 'Campaign not found', es: 'No se ha encontrado la campaña' },
  campaignNotDraft: {
    en: 'Only a draft campaign can be changed',
    es: 'Solo se puede cambiar una campaña en borrador',
  },
  campaignAlreadySending: {
    en: 'Messages of this campaign have gone out; archive it instead of deleting it',
    es: 'Ya se han enviado mensajes de esta campaña; archívela en lugar de eliminarla',
  },
  campaignApproveOwn: {
    en: 'Another System Manager or Admin must approve a campaign you wrote or changed',
    es: 'Otro administrador debe aprobar una campaña que usted ha redactado o cambiado',
  },
  campaignStateInvalid: {
    en: 'This campaign cannot do that in its current state',
    es: 'Esta campaña no permite hacer eso en su estado actual',
  },
  // Issue #24 §3 (decision 0064): approval binds to the content the approver saw.
  campaignContentChanged: {
    en: 'This campaign was changed after you opened it; review it again before approving',
    es: 'Esta campaña se cambió después de que usted la abriera; revísela de nuevo antes de aprobarla',
  },
  campaignTextsOff: {
    en: 'Text messages are turned off for this clinic: turn them on in the settings, or send this campaign by email only',
    es: 'Los mensajes de texto están desactivados en esta clínica: actívelos en la configuración o envíe esta campaña solo por correo electrónico',
  },
  campaignEmailsOff: {
    en: 'Emails are turned off for this clinic: turn them on in the settings, or send this campaign by text only',
    es: 'Los correos electrónicos están desactivados en esta clínica: actívelos en la configuración o envíe esta campaña solo por mensaje de texto',
  },
} as const satisfies Record<string, ServerMessage>;

export type ServerMessageKey = keyof typeof serverMessages;
/** What an error answer may name: a server message, or a validation message of `messages.ts`. */
export type MessageKey = ServerMessageKey | ValidationMessageKey;
export type MessageParams = Record<string, string | number>;
export type NotFoundKey = Extract<ServerMessageKey, `${string}NotFound`>;

export function isServerMessageKey(value: string): value is ServerMessageKey {
  return Object.hasOwn(serverMessages, value);
}

export function isMessageKey(value: string): value is MessageKey {
  return isServerMessageKey(value) || isValidationMessageKey(value);
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** The names a message text asks for, e.g. `['from', 'to']`. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

function paramText(key: MessageKey, name: string, value: string | number, language: Language): string {
  const entry: ServerMessage | undefined = isServerMessageKey(key) ? serverMessages[key] : undefined;
  if (entry?.statusParams?.includes(name)) {
    const label = appointmentStatusLabels[Number(value) as AppointmentStatusCode];
    if (label) return label[language];
  }
  return typeof value === 'number' ? value.toLocaleString(language === 'es' ? 'es-ES' : 'en-US') : value;
}

/** A message in one language with its parameters filled in; a missing parameter stays visible as `{{name}}`. */
export function renderServerMessage(key: MessageKey, params: MessageParams | undefined, language: Language): string {
  const template = isServerMessageKey(key) ? serverMessages[key][language] : validationMessages[key][language];
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    params && Object.hasOwn(params, name) ? paramText(key, name, params[name]!, language) : whole,
  );
}
