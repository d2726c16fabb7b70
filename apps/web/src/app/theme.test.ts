import { DEFAULT_THEME, type MantineColorsTuple } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

const colors = { ...DEFAULT_THEME.colors, ...theme.colors } as Record<string, MantineColorsTuple>;
/** A theme colour as Mantine's `getThemeColor` reads it: "teal.0", or a colour name at the primary shade. */
function resolve(color: string): string {
  const [name, shade] = color.split('.');
  const light = typeof theme.primaryShade === 'object' ? theme.primaryShade.light : theme.primaryShade;
  return colors[name!]![shade === undefined ? light! : Number(shade)]!;
}

describe('links in staff tables', () => {
  // Links are the primary colour at its light shade (Mantine's --mantine-color-anchor).
  const link = resolve(theme.primaryColor!);
  // Without a theme colour a hovered row is Mantine's gray 1, the 4.49:1 that axe reported.
  const hover = resolve(theme.components?.Table?.defaultProps?.highlightOnHoverColor ?? 'gray.1');

  it.each([
    ['a plain row (white)', '#ffffff'],
    ['a striped row (gray 0)', resolve('gray.0')],
    ['a hovered row', hover],
  ])('read at 4.5:1 or more on %s', (_row, background) => {
    expect(contrast(link, background)).toBeGreaterThanOrEqual(4.5);
  });

  it('the computation agrees with what axe measured before the fix: teal 9 on gray 1 is 4.49…:1, under 4.5', () => {
    const before = contrast(resolve('teal.9'), resolve('gray.1'));
    expect(before).toBeGreaterThan(4.49);
    expect(before).toBeLessThan(4.5);
  });
});
