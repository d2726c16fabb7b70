import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { waitForQuietNetwork } from './helpers';

/**
 * The accessibility sweep's checks (issue #10 §4, issue #12): axe-core with the WCAG 2.1 A/AA rules,
 * where a critical or serious violation fails, and no sideways scrolling at the page's width.
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface Finding {
  path: string;
  id: string;
  impact: string | null | undefined;
  nodes: string[];
}

/** The critical and serious WCAG 2.1 A/AA violations on the page as it is now, named by `path`. */
export async function audit(page: Page, path: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'critical' || violation.impact === 'serious')
    .map((violation) => ({
      path,
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(' ')} :: ${node.failureSummary?.split('\n')[1] ?? ''} :: ${node.html.slice(0, 160)}`),
    }));
}

/** Elements wider than their box that scroll sideways, and the page itself. */
export async function sidewaysScrollers(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) found.push(`page ${root.scrollWidth} > ${root.clientWidth}`);
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('main *'))) {
      const style = getComputedStyle(element);
      if (!['auto', 'scroll'].includes(style.overflowX)) continue;
      if (element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0) {
        const name = element.getAttribute('data-testid') ?? element.className.toString().split(' ')[0] ?? element.tagName;
        found.push(`${name} ${element.scrollWidth} > ${element.clientWidth}`);
      }
    }
    return found;
  });
}

/** A page is ready when its main area has drawn and no loader is left. */
export async function settle(page: Page) {
  await waitForQuietNetwork(page);
  await expect(page.locator('main')).toBeVisible();
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0, { timeout: 10_000 });
}

/** Both checks at once: the page as it is now has no serious violation and does not scroll sideways. */
export async function expectAccessibleAndFitting(page: Page, path: string) {
  expect(await audit(page, path)).toEqual([]);
  expect(await sidewaysScrollers(page), `${path} scrolls sideways`).toEqual([]);
}
