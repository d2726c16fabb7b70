import { LoadingOverlay } from '@mantine/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { inflightRequests } from '../lib/api-client';

/** Quick calls finish before this; showing the overlay for them would only flicker. */
const SHOW_AFTER_MS = 200;

/** The full-screen loading overlay of section 2, on while any foreground call runs. */
export function GlobalLoading() {
  const { t } = useTranslation();
  const busy = useSyncExternalStore(inflightRequests.subscribe, inflightRequests.getSnapshot, () => 0) > 0;
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = window.setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [busy]);

  return (
    <>
      <LoadingOverlay
        visible={visible}
        pos="fixed"
        zIndex={900}
        overlayProps={{ backgroundOpacity: 0.35, blur: 1 }}
        loaderProps={{ 'aria-hidden': true }}
        data-testid="global-loading"
      />
      <span className="visually-hidden" role="status" aria-live="polite">
        {visible ? t('loading') : ''}
      </span>
    </>
  );
}
