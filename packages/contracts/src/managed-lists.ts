import { z } from 'zod';
import { PAGE_NUMBER_DEFAULT, PAGE_SIZE_DEFAULT } from './constants';
import {
  bodyRegions,
  customFieldKinds,
  medicationRoutes,
  medicationUnits,
  medicineKinds,
  pumpConcentrationUnits,
  referralSources,
  spinalLocations,
  type CustomFieldKind,
  type EnumOption,
} from './enumerations';
import { transdermalUnitWrong } from './mme';
import { isValidNpi } from './user-admin';
import { EMAIL_PATTERN, idSchema } from './validation';

/**
 * The catalogue of a clinic's managed lists (docs/decisions/0005-managed-lists.md): every list lives in
 * the `managed_items` table under its `list_type`, is served by one route factory and one service, and
 * is edited on one generic admin page. An entry names the list's API path, its admin page, the menu
 * path whose access list guards writes, its title, the zod schema of its own fields (`attributes`,
 * checked on every write) and the descriptors the web builds the form from. The fields themselves are
 * chosen in docs/decisions/0008-managed-list-fields.md.
 */

/** CPT Category I (5 digits), II (4 digits + F), III (4 digits + T), PLA (4 digits + U) and HCPCS Level II (letter + 4 digits). */
export const CPT_CODE_PATTERN = /^(\d{4}[0-9FTU]|[A-V]\d{4})$/;
/** A US (NANP) phone or fax number: ten digits, optionally with +1 and the usual separators. */
export const US_PHONE_PATTERN = /^(\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}$/;

/** Empty text from a form means "not given": it is dropped rather than stored as ''. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'tooLong')
    .optional()
    .transform((value) => (value ? value : undefined));

const optionalPattern = (pattern: RegExp, message: string, max = 40) =>
  optionalText(max).refine((value) => value === undefined || pattern.test(value), message);

export const cptCodeSchema = z
  .string({ error: 'cptCodeInvalid' })
  .trim()
  .toUpperCase()
  .max(20, 'cptCodeInvalid')
  .regex(CPT_CODE_PATTERN, 'cptCodeInvalid');

const optionalCptCode = optionalText(20)
  .transform((value) => value?.toUpperCase())
  .refine((value) => value === undefined || CPT_CODE_PATTERN.test(value), 'cptCodeInvalid');

const optionalNumber = (min: number, max: number) =>
  z.number({ error: 'numberInvalid' }).min(min, 'numberOutOfRange').max(max, 'numberOutOfRange').optional();

/** One value of an enumeration of `enumerations.ts`. */
function oneOf(options: readonly EnumOption[]) {
  const values = options.map((option) => option.value);
  return z
    .union([z.string().max(100, 'invalid'), z.number()], {
      error: (issue) => (issue.input === undefined ? 'required' : 'invalid'),
    })
    .refine((value) => values.includes(value), 'invalid');
}

export type FieldDescriptor = {
  /** The attribute's key in `attributes`. */
  name: string;
  /** i18n key of the label, in the `lists` namespace. */
  labelKey: string;
  /** i18n key of a line of help under the input. */
  helpKey?: string;
  /** Shown as a column of the admin table. */
  inTable?: boolean;
  required?: boolean;
} & (
  | { kind: 'text' | 'textarea' | 'email' | 'phone'; maxLength: number; uppercase?: boolean }
  | { kind: 'number'; min: number; max: number; decimals: number }
  | { kind: 'boolean' }
  | {
      kind: 'select';
      options: readonly EnumOption[];
      /** What an entry stored before this attribute existed means (shown in the table for it). */
      valueWhenMissing?: string;
    }
);

export type ManagedListDefinition = {
  /** Value of `managed_items.list_type`. */
  listType: string;
  /** Collection path of the API; lists sharing a path are told apart by `variant`. */
  apiPath: string;
  variant?: { param: 'type' | 'kind'; value: string };
  /** The web page that manages the list. */
  adminPath: string;
  /** Side-menu path whose access list guards writes (reads are open to every role of the clinic). */
  menuPath: string;
  /** i18n key (with namespace) of the list's title. */
  titleKey: string;
  attributes: z.ZodObject;
  fields: readonly FieldDescriptor[];
};

const description = (maxLength = 500): FieldDescriptor => ({
  name: 'description',
  labelKey: 'fields.description',
  kind: 'textarea',
  maxLength,
});
const nameEs: FieldDescriptor = {
  name: 'nameEs',
  labelKey: 'fields.nameEs',
  helpKey: 'help.nameEs',
  kind: 'text',
  maxLength: 200,
  inTable: true,
};
const cptCode: FieldDescriptor = {
  name: 'cptCode',
  labelKey: 'fields.cptCode',
  helpKey: 'help.cptCode',
  kind: 'text',
  maxLength: 5,
  uppercase: true,
  inTable: true,
};

const interventionalItemsAttributes = z.object({ cptCode: optionalCptCode, description: optionalText(500) });
const interventionalItemsFields = [cptCode, description()];

/** Pages outside the side menu (custom fields, perioperative templates) take the Admin group's access. */
export const ADMIN_GROUP_MENU_PATH = '/admin/dashboard';

const interventionalItem = (type: '1' | '2' | '3', titleKey: string, attributes: z.ZodObject, fields: FieldDescriptor[]) => ({
  listType: `interventionalitems:${type}`,
  apiPath: '/api/interventionalitems',
  variant: { param: 'type' as const, value: type },
  adminPath: `/admin/interventionalitems/${type}`,
  menuPath: `/admin/interventionalitems/${type}`,
  titleKey,
  attributes,
  fields,
});

const customField = (kind: CustomFieldKind): ManagedListDefinition => ({
  listType: `customfield:${kind}`,
  apiPath: '/api/customfields',
  variant: { param: 'kind', value: kind },
  adminPath: `/admin/customfields/${kind}`,
  menuPath: ADMIN_GROUP_MENU_PATH,
  titleKey: `lists:customFieldKinds.${kind}`,
  attributes: z.object({ nameEs: optionalText(200), code: optionalText(40) }),
  fields: [nameEs, { name: 'code', labelKey: 'fields.code', kind: 'text', maxLength: 40, inTable: true }],
});

export const managedLists: readonly ManagedListDefinition[] = [
  {
    listType: 'medicines',
    apiPath: '/api/medicines',
    adminPath: '/admin/medicines',
    menuPath: '/admin/medicines',
    titleKey: 'menu:medicines',
    attributes: z
      .object({
        /** Taken by the patient, or an injectable given in procedures (decision 0062). */
        kind: oneOf(medicineKinds).default('prescription'),
        /** For an injectable, its concentration (mg/mL, %…). */
        strength: optionalNumber(0.0001, 100_000),
        unit: oneOf(medicationUnits).optional(),
        route: oneOf(medicationRoutes).optional(),
        isOpioid: z.boolean({ error: 'invalid' }).default(false),
        /** Morphine milligram equivalents per unit of strength (CDC 2022 conversion factors). */
        mmeConversionFactor: optionalNumber(0, 1000),
        /** An opioid the CDC table gives no factor for (buprenorphine): shown as "not converted", never 0. */
        mmeNotConverted: z.boolean({ error: 'invalid' }).default(false),
        /** Opioids taken with a benzodiazepine are flagged on the MME card (decision 0039). */
        isBenzodiazepine: z.boolean({ error: 'invalid' }).default(false),
      })
      .superRefine((value, context) => {
        if (value.isOpioid && !value.mmeNotConverted && value.mmeConversionFactor === undefined) {
          context.addIssue({ code: 'custom', path: ['mmeConversionFactor'], message: 'mmeFactorRequired' });
        }
        // The CDC table converts a patch from its rate only (decision 0039 as amended by 0062).
        if (
          transdermalUnitWrong({ isOpioid: value.isOpioid, unit: String(value.unit ?? ''), route: String(value.route ?? '') })
        ) {
          context.addIssue({ code: 'custom', path: ['unit'], message: 'transdermalPerHour' });
        }
      }),
    fields: [
      {
        name: 'kind',
        labelKey: 'fields.medicineKind',
        helpKey: 'help.medicineKind',
        kind: 'select',
        options: medicineKinds,
        valueWhenMissing: 'prescription',
        inTable: true,
      },
      { name: 'strength', labelKey: 'fields.strength', kind: 'number', min: 0.0001, max: 100_000, decimals: 4, inTable: true },
      {
        name: 'unit',
        labelKey: 'fields.unit',
        helpKey: 'help.medicineUnit',
        kind: 'select',
        options: medicationUnits,
        inTable: true,
      },
      // Not a column: with the kind beside them the list no longer fits 1280 px, and the unit (mcg/h) tells a patch.
      { name: 'route', labelKey: 'fields.route', kind: 'select', options: medicationRoutes },
      { name: 'isOpioid', labelKey: 'fields.isOpioid', kind: 'boolean', inTable: true },
      {
        name: 'mmeConversionFactor',
        labelKey: 'fields.mmeConversionFactor',
        helpKey: 'help.mmeConversionFactor',
        kind: 'number',
        min: 0,
        max: 1000,
        decimals: 4,
      },
      {
        name: 'mmeNotConverted',
        labelKey: 'fields.mmeNotConverted',
        helpKey: 'help.mmeNotConverted',
        kind: 'boolean',
      },
      { name: 'isBenzodiazepine', labelKey: 'fields.isBenzodiazepine', kind: 'boolean' },
    ],
  },
  {
    listType: 'bodylocations',
    apiPath: '/api/bodylocations',
    adminPath: '/admin/bodylocations',
    menuPath: '/admin/bodylocations',
    titleKey: 'menu:ptLocations',
    attributes: z.object({
      bodyRegion: oneOf(bodyRegions),
      /** Whether the body map asks for left, right or both. */
      hasSide: z.boolean({ error: 'invalid' }).default(false),
      nameEs: optionalText(200),
    }),
    fields: [
      { name: 'bodyRegion', labelKey: 'fields.bodyRegion', kind: 'select', options: bodyRegions, required: true, inTable: true },
      { name: 'hasSide', labelKey: 'fields.hasSide', helpKey: 'help.hasSide', kind: 'boolean', inTable: true },
      nameEs,
    ],
  },
  {
    listType: 'studygroups',
    apiPath: '/api/studygroups',
    adminPath: '/admin/studygroups',
    menuPath: '/admin/studygroups',
    titleKey: 'menu:cohorts',
    attributes: z.object({ description: optionalText(500) }),
    fields: [{ ...description(), inTable: true }],
  },
  {
    listType: 'rooms',
    apiPath: '/api/rooms',
    adminPath: '/admin/rooms',
    menuPath: '/admin/rooms',
    titleKey: 'menu:rooms',
    attributes: z.object({
      capacity: z
        .number({ error: 'numberInvalid' })
        .int('numberInvalid')
        .min(1, 'numberOutOfRange')
        .max(100, 'numberOutOfRange')
        .default(1),
    }),
    fields: [{ name: 'capacity', labelKey: 'fields.capacity', kind: 'number', min: 1, max: 100, decimals: 0, inTable: true }],
  },
  interventionalItem('1', 'menu:interventionalProcedures', interventionalItemsAttributes, interventionalItemsFields),
  interventionalItem('2', 'menu:injections', interventionalItemsAttributes, interventionalItemsFields),
  interventionalItem('3', 'menu:bodyParts', z.object({ bodyRegion: oneOf(bodyRegions).optional() }), [
    { name: 'bodyRegion', labelKey: 'fields.bodyRegion', kind: 'select', options: bodyRegions, inTable: true },
  ]),
  {
    listType: 'interventionaldirections',
    apiPath: '/api/interventionaldirections',
    adminPath: '/admin/interventionaldirections',
    menuPath: '/admin/interventionaldirections',
    titleKey: 'menu:interventionalDirections',
    attributes: z.object({ abbreviation: optionalText(10) }),
    fields: [{ name: 'abbreviation', labelKey: 'fields.abbreviation', kind: 'text', maxLength: 10, inTable: true }],
  },
  {
    listType: 'interventionallocations',
    apiPath: '/api/interventionallocations',
    adminPath: '/admin/interventionallocations',
    menuPath: '/admin/interventionallocations',
    titleKey: 'menu:interventionalLocations',
    attributes: z.object({ spinalRegion: oneOf(spinalLocations).optional() }),
    fields: [{ name: 'spinalRegion', labelKey: 'fields.spinalRegion', kind: 'select', options: spinalLocations, inTable: true }],
  },
  {
    listType: 'adainterventionallocations',
    apiPath: '/api/adainterventionallocations',
    adminPath: '/admin/adainterventionallocations',
    menuPath: '/admin/adainterventionallocations',
    titleKey: 'menu:adaInterventionalLocations',
    attributes: z.object({ code: optionalText(20) }),
    fields: [{ name: 'code', labelKey: 'fields.code', kind: 'text', maxLength: 20, inTable: true }],
  },
  {
    listType: 'referrals',
    apiPath: '/api/referrals',
    adminPath: '/admin/referrals',
    menuPath: '/admin/referrals',
    titleKey: 'menu:referrals',
    attributes: z.object({
      source: oneOf(referralSources).optional(),
      npi: optionalText(10).refine((value) => value === undefined || isValidNpi(value), 'npiInvalid'),
      practice: optionalText(200),
      phone: optionalPattern(US_PHONE_PATTERN, 'phoneInvalid'),
      fax: optionalPattern(US_PHONE_PATTERN, 'phoneInvalid'),
      email: optionalPattern(EMAIL_PATTERN, 'emailInvalid', 254),
    }),
    fields: [
      { name: 'source', labelKey: 'fields.source', kind: 'select', options: referralSources, inTable: true },
      { name: 'npi', labelKey: 'fields.npi', helpKey: 'help.npi', kind: 'text', maxLength: 10, inTable: true },
      { name: 'practice', labelKey: 'fields.practice', kind: 'text', maxLength: 200, inTable: true },
      { name: 'phone', labelKey: 'fields.phone', kind: 'phone', maxLength: 40, inTable: true },
      { name: 'fax', labelKey: 'fields.fax', kind: 'phone', maxLength: 40 },
      { name: 'email', labelKey: 'fields.email', kind: 'email', maxLength: 254 },
    ],
  },
  {
    listType: 'resourcetypes',
    apiPath: '/api/resourceTypes',
    adminPath: '/admin/resourcetypes',
    menuPath: '/admin/resourcetypes',
    titleKey: 'menu:resourceTypes',
    attributes: z.object({ description: optionalText(500) }),
    fields: [{ ...description(), inTable: true }],
  },
  {
    listType: 'painpumpmedicines',
    apiPath: '/api/painpumpmedicines',
    adminPath: '/admin/painpumpmedicines',
    menuPath: '/admin/painpumpmedicines',
    titleKey: 'menu:painPumpMedicines',
    attributes: z.object({
      concentration: z
        .number({ error: (issue) => (issue.input === undefined ? 'required' : 'numberInvalid') })
        .positive('numberOutOfRange')
        .max(100_000, 'numberOutOfRange'),
      unit: oneOf(pumpConcentrationUnits),
    }),
    fields: [
      {
        name: 'concentration',
        labelKey: 'fields.concentration',
        kind: 'number',
        min: 0.0001,
        max: 100_000,
        decimals: 4,
        required: true,
        inTable: true,
      },
      { name: 'unit', labelKey: 'fields.unit', kind: 'select', options: pumpConcentrationUnits, required: true, inTable: true },
    ],
  },
  ...customFieldKinds.map(customField),
];

export function findManagedList(listType: string): ManagedListDefinition | undefined {
  return managedLists.find((list) => list.listType === listType);
}

/** The list an admin page shows, by its path (`/admin/interventionalitems/2`, `/admin/customfields/race`). */
export function findManagedListByAdminPath(path: string): ManagedListDefinition | undefined {
  const wanted = path.replace(/\/+$/, '').toLowerCase();
  return managedLists.find((list) => list.adminPath.toLowerCase() === wanted);
}

/** Lists that share one API path (interventional items by type, custom fields by kind) form a family. */
export type ManagedListFamily = {
  apiPath: string;
  variantParam: 'type' | 'kind' | null;
  lists: readonly ManagedListDefinition[];
};

export const managedListFamilies: readonly ManagedListFamily[] = [...new Set(managedLists.map((list) => list.apiPath))].map(
  (apiPath) => {
    const lists = managedLists.filter((list) => list.apiPath === apiPath);
    return { apiPath, variantParam: lists[0]?.variant?.param ?? null, lists };
  },
);

export const managedItemSortFields = ['name', 'sortOrder', 'createdAt'] as const;

export const managedItemListQuerySchema = z.object({
  search: z.string().trim().max(100, 'tooLong').optional(),
  sortBy: z.enum(managedItemSortFields, { error: 'invalid' }).default('sortOrder'),
  sortDirection: z.enum(['asc', 'desc'], { error: 'invalid' }).default('asc'),
  /** Absent: active and inactive entries. */
  active: z
    .enum(['true', 'false'], { error: 'invalid' })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true')),
  pageNumber: z.coerce.number({ error: 'invalid' }).int('invalid').min(0, 'invalid').default(PAGE_NUMBER_DEFAULT),
  /** Selectors ask for everything at once with 999, as the doctor selector does (section 9). */
  pageSize: z.coerce.number({ error: 'invalid' }).int('invalid').min(1, 'invalid').max(999, 'invalid').default(PAGE_SIZE_DEFAULT),
});
export type ManagedItemListQuery = z.input<typeof managedItemListQuerySchema>;

export const managedItemNameSchema = z.string({ error: 'nameRequired' }).trim().min(1, 'nameRequired').max(200, 'tooLong');

/** A create or update of any list; the list's own schema checks `attributes`. */
export const managedItemInputSchema = z.object({
  name: managedItemNameSchema,
  isActive: z.boolean({ error: 'invalid' }).default(true),
  sortOrder: z
    .number({ error: 'numberInvalid' })
    .int('numberInvalid')
    .min(0, 'numberOutOfRange')
    .max(100_000, 'numberOutOfRange')
    .default(0),
  attributes: z.record(z.string(), z.unknown(), { error: 'invalid' }).default({}),
});
export type ManagedItemInput = z.input<typeof managedItemInputSchema>;

/** The input schema of one list, with its attributes typed: the web form and the API docs use it. */
export function managedItemInputSchemaFor(list: ManagedListDefinition) {
  return managedItemInputSchema.extend({ attributes: list.attributes });
}

export const managedItemSchema = z.object({
  id: idSchema,
  listType: z.string(),
  name: z.string(),
  attributes: z.record(z.string(), z.unknown()),
  isActive: z.boolean(),
  sortOrder: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ManagedItem = z.infer<typeof managedItemSchema>;

export const managedItemPageSchema = z.object({
  totalRecords: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(managedItemSchema),
});
export type ManagedItemPage = z.infer<typeof managedItemPageSchema>;

/** Time zones for the instance settings and the TIME_ZONE question type (section 3: id/name list). */
export const timeZoneSchema = z.object({ id: z.string(), name: z.string() });
export type TimeZone = z.infer<typeof timeZoneSchema>;

// Perioperative message templates: timed messages around a procedure, chosen by its CPT codes.

export const perioperativeChannels = ['email', 'sms'] as const;
export type PerioperativeChannel = (typeof perioperativeChannels)[number];
/** Longest text message most SMS providers accept as one concatenated message. */
export const SMS_MAX_CHARS = 1600;
/** How far before (negative) or after the procedure date a message may go out. */
export const DAY_OFFSET_LIMIT = 365;

export const perioperativeTemplateInputSchema = z.object({
  name: managedItemNameSchema,
  codes: z
    .array(cptCodeSchema, { error: 'invalid' })
    .max(100, 'tooLong')
    .default([])
    .transform((codes) => [...new Set(codes)]),
  isActive: z.boolean({ error: 'invalid' }).default(true),
});
export type PerioperativeTemplateInput = z.input<typeof perioperativeTemplateInputSchema>;

export const perioperativeDetailInputSchema = z
  .object({
    dayOffset: z
      .number({ error: (issue) => (issue.input === undefined ? 'required' : 'numberInvalid') })
      .int('numberInvalid')
      .min(-DAY_OFFSET_LIMIT, 'numberOutOfRange')
      .max(DAY_OFFSET_LIMIT, 'numberOutOfRange'),
    channel: z.enum(perioperativeChannels, { error: 'required' }),
    subject: z
      .string()
      .trim()
      .max(200, 'tooLong')
      .nullish()
      .transform((value) => value || null),
    messageEn: z.string({ error: 'required' }).trim().min(1, 'required').max(5000, 'tooLong'),
    messageEs: z
      .string()
      .trim()
      .max(5000, 'tooLong')
      .nullish()
      .transform((value) => value || null),
  })
  .superRefine((value, context) => {
    if (value.channel === 'email' && !value.subject) context.addIssue({ code: 'custom', path: ['subject'], message: 'required' });
    if (value.channel === 'sms') {
      for (const key of ['messageEn', 'messageEs'] as const) {
        if ((value[key]?.length ?? 0) > SMS_MAX_CHARS) context.addIssue({ code: 'custom', path: [key], message: 'tooLong' });
      }
    }
  });
export type PerioperativeDetailInput = z.input<typeof perioperativeDetailInputSchema>;

export const perioperativeDetailSchema = z.object({
  id: idSchema,
  templateId: idSchema,
  dayOffset: z.number().int(),
  channel: z.enum(perioperativeChannels),
  subject: z.string().nullable(),
  messageEn: z.string(),
  messageEs: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PerioperativeDetail = z.infer<typeof perioperativeDetailSchema>;

export const perioperativeTemplateSummarySchema = z.object({
  id: idSchema,
  name: z.string(),
  codes: z.array(z.string()),
  isActive: z.boolean(),
  detailCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PerioperativeTemplateSummary = z.infer<typeof perioperativeTemplateSummarySchema>;

export const perioperativeTemplateSchema = perioperativeTemplateSummarySchema.extend({
  details: z.array(perioperativeDetailSchema),
});
export type PerioperativeTemplate = z.infer<typeof perioperativeTemplateSchema>;

export const perioperativeTemplatePageSchema = z.object({
  totalRecords: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  data: z.array(perioperativeTemplateSummarySchema),
});
export type PerioperativeTemplatePage = z.infer<typeof perioperativeTemplatePageSchema>;

export const perioperativeTemplateListQuerySchema = managedItemListQuerySchema.omit({ sortBy: true }).extend({
  sortBy: z.enum(['name', 'createdAt'], { error: 'invalid' }).default('name'),
  /** Templates whose codes include this CPT code. */
  code: z.string().trim().toUpperCase().max(5, 'tooLong').optional(),
});
