import { createTheme, Modal, type MantineThemeOverride } from '@mantine/core';

/** A calm clinical look: teal accents on white and soft greys. */
export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 8, dark: 6 },
  defaultRadius: 'md',
  fontFamily: 'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '600' },
  focusRing: 'auto',
  cursorType: 'pointer',
  // xl matches the spec's extra-large screens (1400px), where the side menu widens.
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '87.5em' },
});

/**
 * The theme with texts of the current language: every dialog's close button gets a name that screen
 * readers can announce, without each dialog having to remember it.
 */
export function themeFor(closeLabel: string): MantineThemeOverride {
  return {
    ...theme,
    components: {
      ...theme.components,
      Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } }),
    },
  };
}
