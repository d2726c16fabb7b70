import { describe, expect, it } from 'vitest';
import {
  configurationKeys,
  decodeSettings,
  defaultConfigurationTexts,
  defaultSettingsValues,
  DOCUMENT_MAX_LENGTH,
  fileKeys,
  generalSettingGroups,
  instanceSettingsUpdateSchema,
  instanceSettingsValuesSchema,
  integrationGroups,
  integrationUseFlag,
  isTimeZoneId,
  keysOfGroup,
  parseSettingText,
  serializeSetting,
  settingDefinitions,
  settingFlagReads,
  settingKeys,
  settingsCatalogue,
  type SettingGroup,
} from './instance-settings';

/** Keys of our own beyond the specification's: the clinic's terms and privacy pages (issue #12). */
const ownKeys = {
  legalTexts: [
    'termsAndConditionsEn',
    'termsAndConditionsEs',
    'privacyPolicyEn',
    'privacyPolicyEs',
    'shotConsentEn',
    'shotConsentEs',
  ],
};

/** Our own key among the spec's rates and defaults: the daily cap of automatic messages per patient (decision 0066). */
const ownDefaultsKeys = ['maxPatientMessagesPerDay'];

/** Every key specification section 3 names, by the group it names it under. */
const specKeys: Record<Exclude<SettingGroup, (typeof integrationGroups)[number] | keyof typeof ownKeys>, string[]> = {
  identity: [
    'clinicName',
    'clinicAddress',
    'clinicEmail',
    'clinicPhoneNumber',
    'defaultEmailSender',
    'defaultSmsNumber',
    'defaultState',
    'timeZoneId',
    'timeZoneOffsetHours',
    'deploymentDate',
    'autoLogoutTime',
    'therapyManagerNumber',
    'skipPaymentDepartments',
    'upsideAppointmentId',
    'mappedAlgosClinicInstanceId',
  ],
  files: ['clinicLogoPrimary', 'clinicLogoSecondary', 'practiceLogo', 'newPatientAgreementEn', 'newPatientAgreementEs'],
  featureFlags: [
    'enableSms',
    'enableEmail',
    'enablePatientSelfCheckin',
    'useRpm',
    'enablePaymentCollection',
    'enableDemoDashboard',
    'enableEducationalVideosPage',
    'enableUdsStatusReminder',
    'enableHomeCheckin',
    'enableProcedureNote',
    'enableShotConsent',
    'enableDigitalShotConsent',
    'welcomeScreenEnabled',
    'isPharmacyRequired',
    'hideExitPro',
    'checkinConfirmationPage',
    'enableProviderAppointmentDashboard',
    'newAppointmentDashboard',
    'enableMrnLookup',
    'enablePsycEval',
    'enablePortalPro',
    'isPortalProClinic',
    'useCodePull',
    'campaignOnly',
    'appLinkToggle',
    'showBmiFilterOnSandbox',
    'showIntakeFormForNewPatients',
    'showOptInToConsentPage',
    'preferAthenaFHIR',
    'sendSchedulingDataToSalesforce',
  ],
  ratesAndDefaults: [
    'proRate',
    'rpmRate',
    'defaultRandForm',
    'applicableForms',
    'defaultPainScore',
    'intakeFormNotificationHours',
    'consentExpiration',
    'healthHistoryReconsiliation',
  ],
  extendedPatientQuestions: [
    'extendedPatientAskSexualOrientation',
    'extendedPatientAskAssignedSexAtBirth',
    'extendedPatientAskPreferredPronouns',
    'extendedPatientAskCommunicationPreferences',
  ],
  appointmentReasonQuestions: [
    'patientAppointmentReasonAdditionalQuestionId',
    'patientAppointmentReasonNewPatientAdditionalQuestionOptionId',
    'patientAppointmentReasonFollowUpAdditionalQuestionOptionId',
    'additionalQuestionIdsToOnlyShowForNewPatientPatientAppointmentReason',
    'customQuestionDepartmentIds',
  ],
  demo: ['demoPatientId', 'demoPatientAppointmentId', 'demoPatientExternalId'],
  notificationLists: [
    'apptCancelEmails',
    'apptCancelEmailBody',
    'customFormSubmissionEmails',
    'campaignEmails',
    'nevroExceptionEmailRecipients',
    'lucidLaneNotificationEmail',
    'reactivEmailRecipients',
  ],
};

/** Integration blocks: the spec names the use-flag and describes each field; these are our names for them. */
const integrationKeys: Record<(typeof integrationGroups)[number], string[]> = {
  reactiv: ['useReactiv', 'reactivDiagnosisCodes', 'reactivOverrideDate', 'reactivProviders'],
  mainstay: ['useMainstay'],
  lucidLane: ['useLucidLane', 'lucidLaneOrderTypeId'],
  nevro: [
    'useNevro',
    'nevroSalesforceApiVersion',
    'nevroSalesforceClientId',
    'nevroSalesforceClientSecret',
    'nevroSalesforceTokenUrl',
    'nevroSalesforceIntrospectUrl',
  ],
  athena: [
    'useAthena',
    'athenaPracticeId',
    'athenaDepartmentIds',
    'athenaProviderIds',
    'athenaTherapistIds',
    'athenaOrthopedicIds',
  ],
  modMed: [
    'useModMed',
    'modMedAccessTokenUrl',
    'modMedResourceUrl',
    'modMedUsername',
    'modMedPassword',
    'modMedApiKey',
    'modMedDocumentMappingDefault',
    'modMedDocumentMappingPatientAgreement',
    'modMedDocumentMappingOnePager',
    'modMedDocumentMappingScreener',
  ],
  greenway: [
    'useGreenway',
    'greenwayApiKey',
    'greenwayPracticeId',
    'greenwayServiceCenterIds',
    'greenwayProviderIds',
    'greenwayUsername',
    'greenwayPassword',
    'greenwayLicenseId',
    'greenwayUserLogon',
    'greenwayApplicationName',
    'greenwayMachineName',
    'greenwayDocumentMappingDefault',
    'greenwayDocumentMappingPatientAgreement',
    'greenwayDocumentMappingOnePager',
    'greenwayDocumentMappingScreener',
  ],
  drChrono: ['useDrChrono', 'drChronoClientId', 'drChronoClientSecret', 'drChronoRedirectUrl', 'drChronoWebhookSecret'],
  advancedMd: [
    'useAdvancedMD',
    'advancedMdUsername',
    'advancedMdPassword',
    'advancedMdOfficeCode',
    'advancedMdAppName',
    'advancedMdInitialUrl',
    'advancedMdTokenDetails',
  ],
  eClinicalWorks: [
    'useEClinicalWorks',
    'eClinicalWorksClientId',
    'eClinicalWorksClientSecret',
    'eClinicalWorksResourceUrl',
    'eClinicalWorksRedirectUrl',
    'eClinicalWorksCodeChallenge',
    'eClinicalWorksBulkClientId',
    'eClinicalWorksBulkGroupId',
    'eClinicalWorksBulkPrivateKey',
  ],
  clickup: ['useClickup', 'clickupSpaceId', 'clickupFolderIds', 'clickupListIds'],
  twilio: ['useTwilio', 'twilioAccountSid', 'twilioAuthToken'],
};

const typeOf = (key: string) => settingDefinitions.get(key)?.type;

describe('instance settings catalogue', () => {
  it.each(Object.entries(specKeys))('holds every key the spec names under %s, in that group', (group, keys) => {
    expect(keys.filter((key) => settingDefinitions.get(key)?.group !== group)).toEqual([]);
  });

  it.each(Object.entries(integrationKeys))('holds the %s block with its use-flag first and nothing else', (group, keys) => {
    expect(keysOfGroup(group as SettingGroup)).toEqual(keys);
    expect(typeOf(integrationUseFlag(group as (typeof integrationGroups)[number]))).toBe('boolean');
    expect(keys[0]).toMatch(/^use/);
  });

  it('holds the keys this codebase already reads, with the types the readers expect', () => {
    expect(typeOf('autoLogoutTime')).toBe('integer');
    expect(settingDefinitions.get('autoLogoutTime')).toMatchObject({ unit: 'minutes', default: 30 });
    expect(typeOf('timeZoneOffsetHours')).toBe('number');
    expect(typeOf('clinicName')).toBe('text');
    for (const key of [
      'useCodePull',
      'useNevro',
      'isPortalProClinic',
      'enablePortalPro',
      'useMainstay',
      'campaignOnly',
      'devicePartnerMode',
    ])
      expect(typeOf(key), key).toBe('boolean');
  });

  it('has about 163 keys, each once, and no group beyond those of the spec and our own', () => {
    expect(new Set(settingKeys).size).toBe(settingKeys.length);
    const specCount = Object.values(specKeys).flat().length + Object.values(integrationKeys).flat().length;
    // The spec's keys, the menu's devicePartnerMode and our own; its file names live beside each file.
    expect(settingKeys.length).toBe(specCount + 1 + Object.values(ownKeys).flat().length + ownDefaultsKeys.length);
    for (const key of ownDefaultsKeys) expect(typeOf(key), key).toBe('integer');
    expect(settingKeys.length + fileKeys.length).toBeGreaterThanOrEqual(150);
    expect(new Set(settingsCatalogue.map((d) => d.group))).toEqual(new Set([...generalSettingGroups, ...integrationGroups]));
  });

  it('types every password, client secret, api key, webhook secret and token as a write-only secret', () => {
    const credentialLike = settingKeys.filter((key) => /(password|secret|apikey|tokendetails)$/i.test(key));
    expect(credentialLike.length).toBeGreaterThanOrEqual(10);
    for (const key of credentialLike) expect(typeOf(key), key).toBe('secret');
    expect(typeOf('eClinicalWorksBulkPrivateKey')).toBe('file');
    expect(typeOf('modMedAccessTokenUrl')).toBe('url');
  });

  it('has valid defaults that survive the trip through their stored text', () => {
    const defaults = defaultSettingsValues();
    expect(instanceSettingsValuesSchema.safeParse(defaults).success).toBe(true);
    expect(decodeSettings(defaultConfigurationTexts)).toEqual(defaults);
    expect(defaults).toMatchObject({
      autoLogoutTime: 30,
      timeZoneOffsetHours: 0,
      enableEmail: true,
      useNevro: false,
      applicableForms: [],
    });
  });

  it('sends every key but the files on the wire, in catalogue order', () => {
    expect(configurationKeys).toEqual(settingKeys.filter((key) => !fileKeys.includes(key as never)));
    expect(configurationKeys[0]).toBe('clinicName');
  });

  it('reads booleans sent as the text "true" and lists sent comma-separated', () => {
    expect(parseSettingText(settingDefinitions.get('useNevro')!, 'true')).toBe(true);
    expect(parseSettingText(settingDefinitions.get('useNevro')!, 'false')).toBe(false);
    expect(parseSettingText(settingDefinitions.get('applicableForms')!, '1, 11 ,')).toEqual([1, 11]);
    expect(serializeSetting(settingDefinitions.get('apptCancelEmails')!, ['a@b.co', 'c@d.co'])).toBe('a@b.co,c@d.co');
    expect(decodeSettings({ useNevro: 'true', applicableForms: '2,3', proRate: '12.5' })).toMatchObject({
      useNevro: true,
      applicableForms: [2, 3],
      proRate: 12.5,
    });
  });

  it('falls back to the default when a stored value cannot be read', () => {
    expect(decodeSettings({ autoLogoutTime: 'soon', timeZoneId: 'Mars/Olympus' })).toMatchObject({
      autoLogoutTime: 30,
      timeZoneId: '',
    });
  });

  it.each([
    [{ apptCancelEmails: ['frontdesk@clinic.com', 'not an email'] }, 'apptCancelEmails', 'emailListInvalid'],
    [{ clinicEmail: 'clinic.com' }, 'clinicEmail', 'emailInvalid'],
    [{ autoLogoutTime: 0 }, 'autoLogoutTime', 'numberOutOfRange'],
    [{ autoLogoutTime: 1.5 }, 'autoLogoutTime', 'numberInvalid'],
    [{ autoLogoutTime: null }, 'autoLogoutTime', 'required'],
    [{ timeZoneId: 'Mars/Olympus' }, 'timeZoneId', 'timeZoneInvalid'],
    [{ modMedResourceUrl: 'http://192.168.1.5/fhir' }, 'modMedResourceUrl', 'urlInvalid'],
    [{ modMedResourceUrl: 'javascript:alert(1)' }, 'modMedResourceUrl', 'urlInvalid'],
    [{ applicableForms: [1, 16] }, 'applicableForms', 'formIdsInvalid'],
    [{ deploymentDate: '02/31/2026' }, 'deploymentDate', 'dateInvalid'],
    [{ useNevro: 'yes' }, 'useNevro', 'invalid'],
  ])('refuses %j with %s: %s', (input, field, message) => {
    const result = instanceSettingsUpdateSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toContainEqual([field, message]);
  });

  it('accepts outcome forms and custom form UUIDs, dropping duplicates, and trims email lists', () => {
    const custom = '0b8f3c3e-6d1a-4c61-9a55-3f1f0c1e2d3a';
    const result = instanceSettingsUpdateSchema.parse({
      applicableForms: [1, 15, 1, custom],
      apptCancelEmails: [' a@b.co ', ''],
      defaultState: 'tx',
    });
    expect(result).toEqual({ applicableForms: [1, 15, custom], apptCancelEmails: ['a@b.co'], defaultState: 'TX' });
  });

  it('keeps a clinic page text of up to 20,000 characters with its paragraphs, and refuses a longer one', () => {
    expect(keysOfGroup('legalTexts')).toEqual(ownKeys.legalTexts);
    for (const key of ownKeys.legalTexts) expect(typeOf(key), key).toBe('document');
    const text = `First paragraph.\n\nSecond, line one.\nLine two.${'x'.repeat(DOCUMENT_MAX_LENGTH - 45)}`;
    expect(text.length).toBe(DOCUMENT_MAX_LENGTH);
    expect(instanceSettingsUpdateSchema.parse({ privacyPolicyEs: text })).toEqual({ privacyPolicyEs: text });
    const result = instanceSettingsUpdateSchema.safeParse({ termsAndConditionsEn: `${text}x` });
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([['termsAndConditionsEn', 'tooLong']]);
    expect(defaultSettingsValues()).toMatchObject({ termsAndConditionsEn: '', privacyPolicyEs: '' });
  });

  it('adds the clinic page texts, then the injection consent, at the end of the wire list, so earlier positions stay where they were', () => {
    expect(configurationKeys.slice(-6)).toEqual(ownKeys.legalTexts);
    expect(configurationKeys.slice(-2)).toEqual(['shotConsentEn', 'shotConsentEs']);
    expect(configurationKeys[configurationKeys.length - 7]).toBe('twilioAuthToken');
  });

  it('refuses unknown keys instead of dropping them', () => {
    expect(instanceSettingsUpdateSchema.safeParse({ clinicNmae: 'Typo' }).success).toBe(false);
  });

  it('knows IANA time zones and refuses offsets and inventions', () => {
    expect(isTimeZoneId('America/Chicago')).toBe(true);
    expect(isTimeZoneId('UTC')).toBe(true);
    expect(isTimeZoneId('+05:00')).toBe(false);
    expect(isTimeZoneId('Mars/Olympus')).toBe(false);
  });

  it('maps every single-flag read to a boolean key', () => {
    for (const key of Object.values(settingFlagReads)) expect(typeOf(key), key).toBe('boolean');
  });
});
