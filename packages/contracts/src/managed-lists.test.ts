import { describe, expect, it } from 'vitest';
import {
  CPT_CODE_PATTERN,
  findManagedList,
  findManagedListByAdminPath,
  managedItemInputSchemaFor,
  managedListFamilies,
  managedLists,
  perioperativeDetailInputSchema,
  perioperativeTemplateInputSchema,
} from './managed-lists';
import { menuAccessFor, menuItems, menuTitlesEn, type MenuItem } from './menu';

const flatten = (items: readonly MenuItem[]): MenuItem[] => items.flatMap((item) => [item, ...flatten(item.children ?? [])]);

describe('the managed-list catalogue', () => {
  it('names each list type, admin page and API variant once', () => {
    const unique = (values: string[]) => new Set(values).size === values.length;
    expect(unique(managedLists.map((list) => list.listType))).toBe(true);
    expect(unique(managedLists.map((list) => list.adminPath))).toBe(true);
    expect(unique(managedLists.map((list) => `${list.apiPath}?${list.variant?.value ?? ''}`))).toBe(true);
  });

  it('has a list for every Admin list page of the side menu (not the dashboard, instance settings, pathways, custom fields, perioperative messages or custom forms)', () => {
    const admin = flatten(menuItems).find((item) => item.id === 'admin')!;
    const listPages = (admin.children ?? [])
      .map((item) => item.url!)
      .filter(
        (url) =>
          ![
            '/admin/dashboard',
            '/admin/instancesettings',
            '/pathways',
            '/admin/customfields',
            '/admin/perioperativetemplates',
            '/customforms',
            '/instruments',
          ].includes(url),
      );
    expect(listPages.length).toBe(13);
    for (const url of listPages) expect(findManagedListByAdminPath(url)?.adminPath.toLowerCase(), url).toBe(url.toLowerCase());
  });

  it('guards writes with a menu entry that only Admins and System Managers have', () => {
    for (const list of managedLists) {
      expect(menuAccessFor(list.menuPath)?.sort(), list.listType).toEqual(['Admin', 'SystemManager']);
    }
  });

  it('has a custom-field list for each of the seven kinds', () => {
    const kinds = managedLists.filter((list) => list.apiPath === '/api/customfields').map((list) => list.variant?.value);
    expect(kinds).toEqual(['gender', 'maritalstatus', 'occupationstatus', 'payorstatus', 'race', 'appointmenttype', 'ethnicity']);
  });

  it('groups lists sharing a path into one family with one variant parameter', () => {
    const items = managedListFamilies.find((family) => family.apiPath === '/api/interventionalitems')!;
    expect(items.variantParam).toBe('type');
    expect(items.lists.map((list) => list.variant?.value)).toEqual(['1', '2', '3']);
    for (const family of managedListFamilies) {
      expect(
        family.lists.every((list) => (list.variant?.param ?? null) === family.variantParam),
        family.apiPath,
      ).toBe(true);
      if (family.variantParam === null) expect(family.lists).toHaveLength(1);
    }
  });

  it.each(managedLists.map((list) => [list.listType, list] as const))(
    '%s: the form fields are exactly the attributes, and "required" matches the schema',
    (_listType, list) => {
      expect(list.fields.map((field) => field.name).sort()).toEqual(Object.keys(list.attributes.shape).sort());
      const empty = list.attributes.safeParse({});
      const requiredByschema = new Set(empty.success ? [] : empty.error.issues.map((issue) => String(issue.path[0])));
      const flagged = new Set(list.fields.filter((field) => field.required).map((field) => field.name));
      // The opioid rule only applies once "opioid" is ticked, so an empty medicine is complete.
      expect([...requiredByschema].sort()).toEqual([...flagged].sort());
    },
  );

  it('titles are menu labels or keys of the lists namespace', () => {
    for (const list of managedLists) {
      const [namespace, key] = list.titleKey.split(':');
      if (namespace === 'menu') expect(Object.keys(menuTitlesEn)).toContain(key);
      else expect(namespace, list.listType).toBe('lists');
    }
  });

  it('finds the list of an admin page whatever the case or trailing slash', () => {
    expect(findManagedListByAdminPath('/Admin/InterventionalItems/2/')?.listType).toBe('interventionalitems:2');
    expect(findManagedListByAdminPath('/admin/interventionalitems/4')).toBeUndefined();
  });
});

describe('list fields', () => {
  const parse = (listType: string, attributes: Record<string, unknown>) =>
    managedItemInputSchemaFor(findManagedList(listType)!).safeParse({ name: 'Entry', attributes });
  const issues = (listType: string, attributes: Record<string, unknown>) => {
    const result = parse(listType, attributes);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
  };

  it('an opioid needs its MME conversion factor; other medicines do not', () => {
    expect(issues('medicines', { isOpioid: true, strength: 10, unit: 'mg' })).toEqual({
      'attributes.mmeConversionFactor': 'mmeFactorRequired',
    });
    expect(parse('medicines', { isOpioid: false, strength: 400, unit: 'mg', route: 'oral' }).success).toBe(true);
    expect(parse('medicines', { isOpioid: true, strength: 5, unit: 'mg', mmeConversionFactor: 1.5 }).success).toBe(true);
  });

  it('a medicine route and unit must come from their lists', () => {
    expect(issues('medicines', { route: 'by pigeon', unit: 'bucket' })).toEqual({
      'attributes.route': 'invalid',
      'attributes.unit': 'invalid',
    });
  });

  it('empty optional text is dropped instead of stored', () => {
    const result = parse('referrals', { practice: '  ', email: '', npi: '' });
    expect(result.success && result.data.attributes).toEqual({});
  });

  it('a referral checks NPI, phone and email', () => {
    expect(issues('referrals', { npi: '1234567890', phone: '555-01', email: 'x@' })).toEqual({
      'attributes.npi': 'npiInvalid',
      'attributes.phone': 'phoneInvalid',
      'attributes.email': 'emailInvalid',
    });
    expect(parse('referrals', { npi: '1234567893', phone: '+1 (512) 555-0100', fax: '512.555.0101' }).success).toBe(true);
  });

  it.each(['64483', '99213', '0213T', '1036F', '0001U', 'J1030', 'j1030'])('%s is a CPT or HCPCS code', (code) => {
    expect(parse('interventionalitems:1', { cptCode: code }).success).toBe(true);
  });

  it.each(['6448', '644830', 'ABCDE', '0213X', 'Z1030'])('%s is not a CPT or HCPCS code', (code) => {
    expect(CPT_CODE_PATTERN.test(code)).toBe(false);
    expect(issues('interventionalitems:2', { cptCode: code })).toEqual({ 'attributes.cptCode': 'cptCodeInvalid' });
  });

  it('a body location needs a body region from the enumeration', () => {
    expect(issues('bodylocations', {})).toEqual({ 'attributes.bodyRegion': 'required' });
    expect(issues('bodylocations', { bodyRegion: 15 })).toEqual({ 'attributes.bodyRegion': 'invalid' });
  });

  it('a room holds 1 to 100 people and defaults to 1', () => {
    const result = parse('rooms', {});
    expect(result.success && result.data.attributes).toEqual({ capacity: 1 });
    expect(issues('rooms', { capacity: 2.5 })).toEqual({ 'attributes.capacity': 'numberInvalid' });
  });

  it('a name is required and trimmed', () => {
    const result = managedItemInputSchemaFor(findManagedList('rooms')!).safeParse({ name: '   ' });
    expect(result.success ? null : result.error.issues[0]?.message).toBe('nameRequired');
  });
});

describe('perioperative templates', () => {
  it('normalises CPT codes and drops repeats', () => {
    expect(perioperativeTemplateInputSchema.parse({ name: 'SCS', codes: ['63650', 'c1778', '63650 '] }).codes).toEqual([
      '63650',
      'C1778',
    ]);
  });

  it('an email message needs a subject; a text message drops nothing but is limited to 1600 characters', () => {
    const email = perioperativeDetailInputSchema.safeParse({ dayOffset: 1, channel: 'email', messageEn: 'Hello' });
    expect(email.success ? null : email.error.issues.map((issue) => issue.path.join('.'))).toEqual(['subject']);
    const sms = perioperativeDetailInputSchema.safeParse({ dayOffset: 1, channel: 'sms', messageEn: 'x'.repeat(1601) });
    expect(sms.success ? null : sms.error.issues[0]?.message).toBe('tooLong');
    expect(perioperativeDetailInputSchema.safeParse({ dayOffset: -7, channel: 'sms', messageEn: 'See you soon' }).success).toBe(
      true,
    );
  });
});

describe('medicines list entries (issue #24, decision 0062)', () => {
  const attributes = findManagedList('medicines')!.attributes;
  const issues = (value: Record<string, unknown>) =>
    attributes.safeParse(value).error?.issues.map((issue) => [issue.path.join('.'), issue.message]);

  it('takes a transdermal opioid per hour only (25 mcg every 72 h counted 19.8 MME/day instead of 60)', () => {
    const patch = { strength: 25, route: 'transdermal', isOpioid: true, mmeConversionFactor: 2.4 };
    expect(issues({ ...patch, unit: 'mcg' })).toEqual([['unit', 'transdermalPerHour']]);
    expect(issues({ ...patch, unit: 'mg' })).toEqual([['unit', 'transdermalPerHour']]);
    expect(issues({ ...patch, unit: 'mcg/h' })).toBeUndefined();
    // A non-opioid patch (lidocaine) is not converted to MME, so its unit is free.
    expect(issues({ strength: 5, unit: '%', route: 'transdermal', isOpioid: false })).toBeUndefined();
  });

  it('lets an opioid the CDC table leaves out go without a factor when marked so, and defaults the kind', () => {
    expect(issues({ strength: 5, unit: 'mcg/h', route: 'transdermal', isOpioid: true })).toEqual([
      ['mmeConversionFactor', 'mmeFactorRequired'],
    ]);
    expect(issues({ strength: 5, unit: 'mcg/h', route: 'transdermal', isOpioid: true, mmeNotConverted: true })).toBeUndefined();
    expect(attributes.parse({ strength: 10, unit: 'mg' })).toMatchObject({ kind: 'prescription' });
    expect(issues({ kind: 'vaccine' })).toEqual([['kind', 'invalid']]);
  });
});
