/**
 * Validation messages of specification section 5 and error texts of section 8, in both languages.
 * Zod schemas carry the key as their message; clients translate it, the server sends the key.
 */
export const validationMessages = {
  emailInvalid: { en: 'Email not valid format', es: 'El formato del correo electrónico no es válido' },
  emailRequired: { en: 'Please enter Email Address', es: 'Introduzca la dirección de correo electrónico' },
  passwordRequired: { en: 'Please enter password', es: 'Introduzca la contraseña' },
  nameRequired: { en: 'Please enter name', es: 'Introduzca el nombre' },
  confirmPasswordRequired: { en: 'Please re-enter password', es: 'Vuelva a introducir la contraseña' },
  passwordsMismatch: { en: 'The two passwords did not match', es: 'Las dos contraseñas no coinciden' },
  previousPasswordRequired: { en: 'Enter previous password', es: 'Introduzca la contraseña anterior' },
  newPasswordRequired: { en: 'Enter new password', es: 'Introduzca la nueva contraseña' },
  passwordPolicy: {
    en: 'Password must be at least 8 characters with 1 uppercase, 1 digit and 1 non alphanumeric character',
    es: 'La contraseña debe tener al menos 8 caracteres con 1 mayúscula, 1 dígito y 1 carácter no alfanumérico',
  },
  passwordSameAsCurrent: {
    en: 'The new password must differ from the current one',
    es: 'La nueva contraseña debe ser distinta de la actual',
  },
  phoneInvalid: { en: 'Phone number not valid', es: 'El número de teléfono no es válido' },
  phoneRequired: { en: 'Phone number required', es: 'El número de teléfono es obligatorio' },
  titleRequired: { en: 'Please enter Title', es: 'Introduzca el título' },
  pinInvalid: { en: 'Pin must be 6 digits', es: 'El PIN debe tener 6 dígitos' },
  npiInvalid: {
    en: 'NPI must be 10 digits with a valid check digit',
    es: 'El NPI debe tener 10 dígitos con un dígito de control válido',
  },
  emailTaken: { en: 'This email is already in use', es: 'Este correo electrónico ya está en uso' },
  codeInvalid: { en: 'The code must be 6 digits', es: 'El código debe tener 6 dígitos' },
  codeWrong: {
    en: 'This code is not right. Check the email and try again.',
    es: 'El código no es correcto. Revise el correo e inténtelo de nuevo.',
  },
  codeExpired: {
    en: 'This code has expired or was already used. Ask for a new one.',
    es: 'El código ha caducado o ya se ha usado. Pida uno nuevo.',
  },
  zipInvalid: { en: 'ZIP code not valid', es: 'El código postal no es válido' },
  dateInvalid: { en: 'Date must be MM/DD/YYYY', es: 'La fecha debe tener el formato MM/DD/AAAA' },
  dateNotReal: {
    en: 'This date does not exist; check the month and the day',
    es: 'Esta fecha no existe; revise el mes y el día',
  },
  textInvalid: {
    en: 'This text contains a character that is not allowed',
    es: 'Este texto contiene un carácter no permitido',
  },
  dateRangeInvalid: {
    en: 'The end date must be on or after the start date',
    es: 'La fecha final debe ser igual o posterior a la fecha inicial',
  },
  idInvalid: { en: 'Identifier not valid', es: 'El identificador no es válido' },
  required: { en: 'This field is required', es: 'Este campo es obligatorio' },
  tooLong: { en: 'This value is too long', es: 'Este valor es demasiado largo' },
  invalid: { en: 'This value is not valid', es: 'Este valor no es válido' },
  nameTaken: { en: 'This name is already in the list', es: 'Este nombre ya está en la lista' },
  cptCodeInvalid: {
    en: 'Enter a CPT or HCPCS code: five characters such as 64483, 0213T or J1030',
    es: 'Introduzca un código CPT o HCPCS de cinco caracteres, como 64483, 0213T o J1030',
  },
  icd10CodeInvalid: {
    en: 'Enter an ICD-10-CM code such as M54.16 or G89.4',
    es: 'Introduzca un código CIE-10-MC, como M54.16 o G89.4',
  },
  visitCodeInvalid: {
    en: 'Enter an ICD-10-CM code such as M54.16, or a CPT or HCPCS code such as 64483',
    es: 'Introduzca un código CIE-10-MC, como M54.16, o un código CPT o HCPCS, como 64483',
  },
  codesRequired: {
    en: 'Add at least one code or code group',
    es: 'Añada al menos un código o grupo de códigos',
  },
  tooMany: {
    en: 'Too many items',
    es: 'Demasiados elementos',
  },
  mergeFieldUnknown: {
    en: 'Use only these fields: {firstName}, {clinic}, {provider}, {instruction}, {link}',
    es: 'Use solo estos campos: {firstName}, {clinic}, {provider}, {instruction}, {link}',
  },
  channelRequired: {
    en: 'Choose text, email or both',
    es: 'Elija texto, correo electrónico o ambos',
  },
  spinalLevelInvalid: {
    en: 'Enter spinal levels such as L4-L5, L5-S1 or C6',
    es: 'Introduzca niveles vertebrales como L4-L5, L5-S1 o C6',
  },
  newDoseRequired: {
    en: 'Enter the new daily dose unless the dose is maintained',
    es: 'Introduzca la nueva dosis diaria, salvo que se mantenga la dosis',
  },
  mmeFactorRequired: {
    en: 'Enter the MME conversion factor of an opioid',
    es: 'Introduzca el factor de conversión MME del opioide',
  },
  transdermalPerHour: {
    en: 'A transdermal opioid is entered per hour: choose the unit mcg/h (a 25 mcg/h patch is 25 mcg/h, however often it is changed)',
    es: 'Un opioide transdérmico se introduce por hora: elija la unidad mcg/h (un parche de 25 mcg/h es 25 mcg/h, sin importar cada cuánto se cambie)',
  },
  medicineNotTaken: {
    en: 'This medicine is an injectable given in procedures, not one the patient takes',
    es: 'Este medicamento es un inyectable que se administra en los procedimientos, no uno que tome el paciente',
  },
  medicineNotInjectable: {
    en: 'Choose an injectable (corticosteroid, local anesthetic, contrast or other) from the medicines list',
    es: 'Elija un inyectable (corticoide, anestésico local, contraste u otro) de la lista de medicamentos',
  },
  emailListInvalid: {
    en: 'Enter email addresses separated by commas, each in a valid format',
    es: 'Introduzca direcciones de correo electrónico separadas por comas, cada una con un formato válido',
  },
  urlInvalid: {
    en: 'Enter an http, https or ftp address that is not a private network address',
    es: 'Introduzca una dirección http, https o ftp que no sea de una red privada',
  },
  timeZoneInvalid: { en: 'Choose a time zone from the list', es: 'Elija una zona horaria de la lista' },
  numberInvalid: { en: 'Enter a number', es: 'Introduzca un número' },
  numberOutOfRange: { en: 'This number is out of range', es: 'Este número está fuera del rango permitido' },
  painScoreRequired: { en: 'Choose a number from 0 (no pain) to 10', es: 'Elija un número de 0 (sin dolor) a 10' },
  bodyMapEmpty: {
    en: 'Mark where it hurts, or tick “I have no pain anywhere”',
    es: 'Marque dónde le duele o marque «No tengo dolor en ninguna parte»',
  },
  bodyMapNoPainWithAreas: {
    en: 'You marked areas that hurt: untick “I have no pain anywhere” or remove the areas',
    es: 'Marcó zonas con dolor: desmarque «No tengo dolor en ninguna parte» o quite las zonas',
  },
  formIdsInvalid: {
    en: 'Form ids are the outcome forms 1 to 15 or custom form identifiers',
    es: 'Los formularios son los de resultados del 1 al 15 o identificadores de formularios personalizados',
  },
  formUnknown: { en: 'Choose forms of this clinic', es: 'Elija formularios de esta clínica' },
  formWordingNotLoaded: {
    en: 'This form’s licensed wording is not loaded for this clinic, so patients cannot be given it (a System Manager imports it under Instruments)',
    es: 'El texto con licencia de este formulario no está cargado para esta clínica, así que no se puede dar a los pacientes (lo importa un administrador del sistema en Instrumentos)',
  },
  fileRequired: { en: 'Choose a file', es: 'Elija un archivo' },
  fileUnreadable: {
    en: 'The upload could not be read; choose the file again',
    es: 'No se pudo leer el archivo enviado; vuelva a elegirlo',
  },
  fileTooLarge: { en: 'The file is too large', es: 'El archivo es demasiado grande' },
  fileTypeInvalid: { en: 'This type of file is not accepted here', es: 'Este tipo de archivo no se acepta aquí' },
  fileUnsafe: {
    en: 'The SVG contains scripts or external references and was refused',
    es: 'El SVG contiene scripts o referencias externas y se ha rechazado',
  },
  questionTypeInvalid: { en: 'Choose a question type from the list', es: 'Elija un tipo de pregunta de la lista' },
  questionIdInvalid: { en: 'This question identifier is not valid', es: 'El identificador de la pregunta no es válido' },
  optionInvalid: { en: 'Choose one of the options shown', es: 'Elija una de las opciones mostradas' },
  taxIdInvalid: {
    en: 'Enter a 9-digit tax ID (SSN 123-45-6789 or EIN 12-3456789)',
    es: 'Introduzca un número fiscal de 9 dígitos (SSN 123-45-6789 o EIN 12-3456789)',
  },
  signatureInvalid: { en: 'Please sign in the box', es: 'Firme dentro del recuadro' },
  answerInvalid: { en: 'This answer is not valid', es: 'Esta respuesta no es válida' },
  notAsked: {
    en: 'This question was not asked with the answers given',
    es: 'Esta pregunta no se hizo con las respuestas dadas',
  },
  linkInvalid: { en: 'This link is not valid', es: 'Este enlace no es válido' },
  formRequired: { en: 'Choose one form', es: 'Elija un formulario' },
  questionIdTaken: { en: 'Another question has this identifier', es: 'Otra pregunta tiene este identificador' },
  sectionIdTaken: { en: 'Another section has this identifier', es: 'Otra sección tiene este identificador' },
  sectionUnknown: { en: 'Choose a section of this form', es: 'Elija una sección de este formulario' },
  optionsTooFew: { en: 'Give at least two options', es: 'Indique al menos dos opciones' },
  optionValueTaken: { en: 'Another option has this value', es: 'Otra opción tiene este valor' },
  showWhenInvalid: {
    en: 'Choose an earlier question with options and one of its values',
    es: 'Elija una pregunta anterior con opciones y uno de sus valores',
  },
  rangeInvalid: { en: 'The minimum must not exceed the maximum', es: 'El mínimo no debe superar el máximo' },
  spanishMissing: {
    en: 'Spanish needs a Spanish text for every text of the form',
    es: 'El español necesita un texto en español para cada texto del formulario',
  },
  identityMismatch: {
    en: 'The last name or date of birth does not match our records',
    es: 'El apellido o la fecha de nacimiento no coinciden con nuestros registros',
  },
  featureOff: { en: 'This clinic does not use this feature', es: 'Esta clínica no usa esta función' },
  placeholderUnknown: {
    en: 'This text uses a placeholder that is not in the list',
    es: 'Este texto usa un marcador que no está en la lista',
  },
  placeholdersUnfilled: {
    en: 'This note still has parts to be completed by the provider',
    es: 'Esta nota aún tiene partes que debe completar el profesional',
  },
  medicinesDiffer: {
    en: 'The medicines in this note differ from the procedure record',
    es: 'Los medicamentos de esta nota no coinciden con el registro del procedimiento',
  },
  patientEmailMissing: { en: 'This patient has no email address', es: 'Este paciente no tiene correo electrónico' },
  patientEmailOff: {
    en: 'This patient does not want email; copy the link instead',
    es: 'Este paciente no desea recibir correo electrónico; copie el enlace',
  },
  clinicEmailOff: {
    en: 'Email is switched off for this clinic; copy the link instead',
    es: 'El correo electrónico está desactivado en esta clínica; copie el enlace',
  },
  privateKeyInvalid: { en: 'The file is not a readable private key', es: 'El archivo no es una clave privada legible' },
  wordingShipped: {
    en: 'This form ships with its own wording; only ODI, NDI, PROMIS Global-10 and SOAPP-R take an imported wording',
    es: 'Este formulario incluye su propio texto; solo ODI, NDI, PROMIS Global-10 y SOAPP-R admiten un texto importado',
  },
  // Encounter import and code groups (issue #15 §1, decision 0050)
  codeGroupNameTaken: {
    en: 'Another code group has this name',
    es: 'Otro grupo de códigos tiene este nombre',
  },
  importPatientNotFound: {
    en: 'No patient matches this row (external id, or name and date of birth)',
    es: 'Ningún paciente coincide con esta fila (id externo, o nombre y fecha de nacimiento)',
  },
  importPatientAmbiguous: {
    en: 'More than one patient matches this name and date of birth; use the external id',
    es: 'Más de un paciente coincide con este nombre y fecha de nacimiento; use el id externo',
  },
  importCodesMissing: {
    en: 'This row has no diagnosis or procedure code',
    es: 'Esta fila no tiene ningún código de diagnóstico ni de procedimiento',
  },
  importColumnMissing: { en: 'This column is not in the file', es: 'Esta columna no está en el archivo' },
  csvUnreadable: {
    en: 'The file is not a readable CSV with a header row',
    es: 'El archivo no es un CSV legible con una fila de encabezados',
  },
  csvEmpty: { en: 'The file has no rows below its header', es: 'El archivo no tiene filas debajo del encabezado' },
  // Hot lists (issue #15 §4, decision 0052)
  hotlistAudienceEmpty: { en: 'No patient matches this template now', es: 'Ningún paciente coincide ahora con esta plantilla' },
  callbackInPast: { en: 'Choose a call-back time in the future', es: 'Elija una hora de devolución de llamada futura' },
} as const;
export type ValidationMessageKey = keyof typeof validationMessages;

export function isValidationMessageKey(value: string): value is ValidationMessageKey {
  return Object.hasOwn(validationMessages, value);
}

/** Fixed user-facing texts of specification section 8 (and the success texts around them). */
export const errorTexts = {
  loginFailed: 'Unable to login. Please check email and password',
  apiUnavailable: 'There is a problem with the API. Please contact System Administrator.',
  forgetPasswordFailed: 'Unable to forget password',
  updatePasswordFailed: 'Unable to update password',
  setPasswordFailed: 'Unable to set password',
  dashboardFailed: 'Something went wrong, Please try again!',
  unexpected: 'Something went wrong. Please refresh the web page to continue.',
  unauthorized: 'Looks like you are not authorized to access this page.',
} as const;
