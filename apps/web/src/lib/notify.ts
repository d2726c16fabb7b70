import { notifications } from '@mantine/notifications';
import { i18n } from './i18n';

type Tone = 'success' | 'error' | 'warning' | 'info';

const colors: Record<Tone, string> = { success: 'teal', error: 'red', warning: 'yellow', info: 'blue' };

/** The section 2 toast: top right, auto-hiding after 6 s (the Notifications provider sets both). */
export function notify(tone: Tone, message: string, title?: string) {
  notifications.show({ color: colors[tone], title: title ?? i18n.t(`common:toast.${tone}`), message });
}
