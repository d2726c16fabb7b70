import { Anchor, Button, Center, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LANGUAGES, type Language } from '@pathwell/contracts/constants';
import { legalPagePaths, paragraphsOf, type LegalPage, type LegalText } from '@pathwell/contracts/legal-texts';
import { AccountLayout } from '../../components/account-layout';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { errorText } from '../../lib/error-text';
import { changeLanguage, isLanguage } from '../../lib/i18n';
import { legalQueries } from './legal.api';

/**
 * The text to show in `language`: the clinic's own when it wrote one in that language; else its own in
 * the other language, with a notice, rather than a standard text that may say something else; else the
 * standard text.
 */
function shownText(data: LegalText, language: Language) {
  const other: Language = language === 'en' ? 'es' : 'en';
  if (data.isDefault[language] && !data.isDefault[other]) {
    return { text: data.text[other], language: other, onlyIn: other, isDefault: false };
  }
  return { text: data.text[language], language, onlyIn: null, isDefault: data.isDefault[language] };
}

function LegalBody({ data, language }: { data: LegalText; language: Language }) {
  const { t } = useTranslation('legal');
  const shown = shownText(data, language);
  return (
    <Stack gap="md">
      {shown.onlyIn ? (
        <Text size="sm" c="dimmed" data-testid="legal-only-in">
          {t(shown.onlyIn === 'en' ? 'onlyEnglish' : 'onlySpanish')}
        </Text>
      ) : null}
      <Stack gap="sm" lang={shown.language} data-testid="legal-text">
        {paragraphsOf(shown.text).map((paragraph, index) => (
          <Text key={index} style={{ whiteSpace: 'pre-line' }}>
            {paragraph}
          </Text>
        ))}
      </Stack>
      {shown.isDefault ? (
        <Text size="sm" c="dimmed" data-testid="legal-standard">
          {data.clinicName ? t('clinicUsesStandard', { clinic: data.clinicName }) : t('standardText')}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * /termsandconditions and /privacypolicy (issue #12, decision 0033): open pages with the clinic's own
 * text when the link names the clinic (`?clinic=`), else Pathwell's standard text; `?lang=` opens them
 * in the language the patient was reading in.
 */
export function LegalPageView({ page }: { page: LegalPage }) {
  const { t, i18n } = useTranslation('legal');
  const [params] = useSearchParams();
  const clinic = params.get('clinic')?.trim() || null;
  const requestedLanguage = params.get('lang');
  const language: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const legal = useQuery(legalQueries.page(page, clinic));

  useEffect(() => {
    if (isLanguage(requestedLanguage)) void changeLanguage(requestedLanguage);
    // Only the language the link asked for; a later switch on the page is the reader's choice.
  }, [requestedLanguage]);

  const other: LegalPage = page === 'terms' ? 'privacy' : 'terms';
  const otherPage = `${legalPagePaths[other]}${clinic ? `?clinic=${encodeURIComponent(clinic)}` : ''}`;
  const missing = legal.error instanceof ApiError && (legal.error.status === 404 || legal.error.status === 400);

  return (
    <AccountLayout
      title={t(`${page}.title`)}
      subtitle={legal.data?.clinicName ?? undefined}
      width={760}
      footer={
        <Anchor component={Link} to={otherPage} c="dimmed" size="sm">
          {t(`${other}.link`)}
        </Anchor>
      }
    >
      <Group justify="flex-end">
        <SegmentedControl
          size="xs"
          aria-label={t('language')}
          value={language}
          onChange={(next) => {
            if (isLanguage(next)) void changeLanguage(next);
          }}
          data={LANGUAGES.map((code) => ({ value: code, label: <span lang={code}>{t(`common:language.${code}`)}</span> }))}
          data-testid="legal-language"
        />
      </Group>
      {legal.data ? (
        <LegalBody data={legal.data} language={language} />
      ) : legal.isError ? (
        <Stack gap="sm" align="flex-start">
          <ErrorAlert testId="legal-error">{missing ? t('clinicNotFound') : errorText(legal.error)}</ErrorAlert>
          {missing ? null : (
            <Button variant="light" onClick={() => void legal.refetch()}>
              {t('retry')}
            </Button>
          )}
        </Stack>
      ) : (
        <Center py="lg">
          <Loader aria-label={t('common:loading')} data-testid="legal-loading" />
        </Center>
      )}
    </AccountLayout>
  );
}
