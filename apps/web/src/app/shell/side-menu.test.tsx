import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { menuItems, menuTitlesEn, visibleMenu, type MenuContext, type MenuItem } from '@pathwell/contracts/menu';
import { renderAt } from '../../test/render';
import { menuIcons } from './menu-icons';
import { menuLabelKey, SideMenu } from './side-menu';

const flags = {
  devicePartnerMode: false,
  programMode: false,
  portalPro: false,
  mainstay: false,
  campaignsEnabled: true,
  campaignOnly: false,
  providerAppointmentDashboard: true,
};

const contexts: Record<string, MenuContext> = {
  'a System Manager': { role: 'SystemManager', isParent: false, isChild: false, allClinicsView: false, flags },
  'an Admin': { role: 'Admin', isParent: false, isChild: false, allClinicsView: false, flags },
  'a Doctor': { role: 'Doctor', isParent: false, isChild: false, allClinicsView: false, flags },
  'a Staff member': { role: 'Staff', isParent: false, isChild: false, allClinicsView: false, flags },
  'a Staff member without campaigns': {
    role: 'Staff',
    isParent: false,
    isChild: false,
    allClinicsView: false,
    flags: { ...flags, campaignsEnabled: false },
  },
  'a parent user in the all-clinics view': { role: 'Admin', isParent: true, isChild: false, allClinicsView: true, flags },
};

const title = (item: MenuItem) => menuTitlesEn[menuLabelKey(item.titleKey) as keyof typeof menuTitlesEn];
const flatten = (items: MenuItem[]): MenuItem[] => items.flatMap((item) => [item, ...flatten(item.children ?? [])]);

describe('side menu', () => {
  for (const [who, ctx] of Object.entries(contexts)) {
    it(`shows ${who} exactly the items visibleMenu returns`, async () => {
      const items = visibleMenu(ctx);
      renderAt(<SideMenu items={items} />);
      const nav = await screen.findByRole('navigation', { name: 'Main menu' });
      const user = userEvent.setup();
      for (const collapse of items.filter((item) => item.type === 'collapse')) {
        await user.click(within(nav).getByRole('button', { name: title(collapse) }));
      }

      const expectedLinks = flatten(items).filter((item) => item.type === 'item');
      // Opened groups mount their children as their transition starts.
      await waitFor(() =>
        expect(
          within(nav)
            .getAllByRole('link')
            .map((link) => link.textContent),
        ).toEqual(expectedLinks.map(title)),
      );
      expect(
        within(nav)
          .getAllByRole('link')
          .map((link) => link.getAttribute('href')),
      ).toEqual(expectedLinks.map((item) => item.url));
    });
  }

  it('has an icon component for every icon the menu names', () => {
    const named = flatten(menuItems).flatMap((item) => (item.icon ? [item.icon] : []));
    expect(named.filter((icon) => !menuIcons[icon])).toEqual([]);
  });
});
