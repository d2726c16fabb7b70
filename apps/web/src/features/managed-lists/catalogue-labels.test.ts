import { describe, expect, it } from 'vitest';
import { managedLists } from '@pathwell/contracts/managed-lists';
import { i18n } from '../../lib/i18n';

const exists = (key: string, lng: 'en' | 'es') => i18n.exists(key, { lng, ns: 'lists', fallbackLng: false });

describe('labels of the managed-list catalogue', () => {
  it.each(['en', 'es'] as const)('every title, field label and help text exists in %s', (lng) => {
    const missing = managedLists.flatMap((list) => [
      ...(exists(list.titleKey, lng) ? [] : [list.titleKey]),
      ...list.fields
        .flatMap((field) => [field.labelKey, ...(field.helpKey ? [field.helpKey] : [])])
        .filter((key) => !exists(key, lng)),
    ]);
    expect(missing).toEqual([]);
  });
});
