import { Button, Menu, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@pathwell/contracts/constants';
import { changeLanguage, isLanguage } from '../lib/i18n';

/** English / Spanish switch, remembered in localStorage; `<html lang>` follows it. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('common');
  const current = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          size="compact-md"
          leftSection={<IconLanguage size={18} aria-hidden />}
          data-testid="language-switcher"
        >
          {/* The visible code starts the button's name (WCAG 2.5.3, label in name); the rest is read out. */}
          {current.toUpperCase()}
          <VisuallyHidden>{t('language.switch', { language: t(`language.${current}`) })}</VisuallyHidden>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('language.label')}</Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            onClick={() => void changeLanguage(language)}
            rightSection={language === current ? <IconCheck size={14} aria-hidden /> : null}
            aria-current={language === current ? 'true' : undefined}
            data-testid={`language-option-${language}`}
          >
            {t(`language.${language}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
