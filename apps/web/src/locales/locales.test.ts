import { describe, expect, it } from 'vitest';
import { menuItems, menuTitlesEn, type MenuItem } from '@pathwell/contracts/menu';
import { errorTexts } from '@pathwell/contracts/messages';
import { i18n, namespaces, resources } from '../lib/i18n';
import enErrorsFile from './en/errors.json';
import enMenuFile from './en/menu.json';

type Tree = { [key: string]: string | Tree };

function leafKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

function leaves(tree: Tree): string[] {
  return Object.values(tree).flatMap((value) => (typeof value === 'string' ? [value] : leaves(value)));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe('English copies of the contracts texts', () => {
  // Both locale folders hold every key; the English menu labels and section-8 texts are copies of the
  // contracts' wording, and these checks keep the copies from drifting.
  it('en/menu.json equals the menu titles of the contracts', () => {
    expect(enMenuFile).toEqual(menuTitlesEn);
  });

  it('en/errors.json texts equal the section 8 texts of the contracts', () => {
    expect(enErrorsFile.texts).toEqual(errorTexts);
  });
});

describe('locales', () => {
  for (const namespace of namespaces) {
    it(`has the same keys in English and Spanish in "${namespace}"`, () => {
      const en = leafKeys(resources.en[namespace] as Tree).sort();
      const es = leafKeys(resources.es[namespace] as Tree).sort();
      expect({
        missingInSpanish: en.filter((key) => !es.includes(key)),
        missingInEnglish: es.filter((key) => !en.includes(key)),
      }).toEqual({
        missingInSpanish: [],
        missingInEnglish: [],
      });
    });

    it(`uses the same placeholders in both languages in "${namespace}"`, () => {
      const en = resources.en[namespace] as Tree;
      const es = resources.es[namespace] as Tree;
      for (const key of leafKeys(en)) {
        const esText = i18n.getResource('es', namespace, key) as string | undefined;
        const enText = i18n.getResource('en', namespace, key) as string;
        if (esText !== undefined) expect(placeholders(esText), `${namespace}:${key}`).toEqual(placeholders(enText));
      }
      expect(leaves(es).every((text) => text.trim().length > 0)).toBe(true);
    });
  }

  it('translates every menu title key in both languages', () => {
    const flatten = (items: MenuItem[]): MenuItem[] => items.flatMap((item) => [item, ...flatten(item.children ?? [])]);
    const keys = new Set([
      ...Object.keys(menuTitlesEn),
      ...flatten(menuItems).map((item) => item.titleKey.replace(/^menu\./, '')),
    ]);
    for (const key of keys) {
      expect(i18n.exists(key, { lng: 'en', ns: 'menu', fallbackLng: false }), `en menu.${key}`).toBe(true);
      expect(i18n.exists(key, { lng: 'es', ns: 'menu', fallbackLng: false }), `es menu.${key}`).toBe(true);
    }
  });

  it("keeps the spec's exact English texts", () => {
    const t = i18n.getFixedT('en');
    expect(t('errors:texts.unexpected')).toBe('Something went wrong. Please refresh the web page to continue.');
    expect(t('errors:texts.unauthorized')).toBe('Looks like you are not authorized to access this page.');
    expect(t('errors:texts.loginFailed')).toBe(errorTexts.loginFailed);
    expect(t('auth:setPassword.failedTitle')).toBe('Failed to Set up Account');
    expect(t('menu:patientCampaigns')).toBe('Patient Campaigns');
  });
});
