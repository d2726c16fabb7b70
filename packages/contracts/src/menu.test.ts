import { describe, it, expect } from 'vitest';
import {
  canAccessPath,
  filterMenu,
  homePathFor,
  menuAccessFor,
  menuItems,
  menuTitlesEn,
  visibleMenu,
  type MenuContext,
  type MenuItem,
} from './menu';
import type { Role } from './roles';
import type { MenuFlags } from './session';

const defaultFlags: MenuFlags = {
  devicePartnerMode: false,
  programMode: false,
  portalPro: false,
  mainstay: false,
  campaignsEnabled: true,
  campaignOnly: false,
  providerAppointmentDashboard: true,
};

type ContextChange = Partial<Omit<MenuContext, 'flags'>> & {
  flags?: Partial<MenuFlags>;
};

function context(role: Role, change: ContextChange = {}): MenuContext {
  return {
    role,
    isParent: false,
    isChild: false,
    allClinicsView: false,
    ...change,
    flags: { ...defaultFlags, ...change.flags },
  };
}

function ids(items: readonly MenuItem[]): string[] {
  return items.flatMap((item) => [item.id, ...ids(item.children ?? [])]);
}

function topLabels(ctx: MenuContext): string[] {
  return visibleMenu(ctx).map((item) => menuTitlesEn[item.titleKey.replace(/^menu\./, '') as keyof typeof menuTitlesEn]);
}

describe('visibility rules on the clinic menu', () => {
  it.each<{ rule: string; ctx: MenuContext; id: string; visible: boolean }>([
    { rule: 'a Staff user does not see Reports', ctx: context('Staff'), id: 'reports', visible: false },
    { rule: 'a Doctor sees Reports', ctx: context('Doctor'), id: 'dataSandbox', visible: true },
    { rule: 'Instance Settings is for System Managers only', ctx: context('Admin'), id: 'instanceSettings', visible: false },
    { rule: 'a System Manager sees Instance Settings', ctx: context('SystemManager'), id: 'instanceSettings', visible: true },
    {
      rule: 'Questionnaire Wording is for System Managers only',
      ctx: context('Admin'),
      id: 'questionnaireWording',
      visible: false,
    },
    {
      rule: 'a System Manager sees Questionnaire Wording',
      ctx: context('SystemManager'),
      id: 'questionnaireWording',
      visible: true,
    },
    { rule: 'an Admin sees the system configuration group', ctx: context('Admin'), id: 'cohorts', visible: true },
    { rule: 'a Doctor does not see the system configuration group', ctx: context('Doctor'), id: 'admin', visible: false },
    { rule: 'Pathways is for all four roles: Staff see it', ctx: context('Staff'), id: 'pathways', visible: true },
    { rule: 'Pathways is for all four roles: Doctors see it', ctx: context('Doctor'), id: 'pathways', visible: true },
    {
      rule: 'a Doctor does not see the Communication Dashboard',
      ctx: context('Doctor'),
      id: 'communicationDashboard',
      visible: false,
    },
    { rule: 'a Doctor does not see Login Details', ctx: context('Doctor'), id: 'loginDetails', visible: false },
    { rule: 'a Staff user does not see Activity Logs', ctx: context('Staff'), id: 'activityLogs', visible: false },
    { rule: 'an Admin sees Activity Logs', ctx: context('Admin'), id: 'activityLogs', visible: true },
    { rule: 'a Doctor does not see Instance Information', ctx: context('Doctor'), id: 'instanceInformation', visible: false },
    { rule: 'an Admin sees Clinic Information', ctx: context('Admin'), id: 'clinicInformation', visible: true },
    { rule: 'a Staff user does not see System Users', ctx: context('Staff'), id: 'systemUsers', visible: false },
    { rule: 'a Doctor sees Messages', ctx: context('Doctor'), id: 'messages', visible: true },
    { rule: 'a Staff user does not see Messages', ctx: context('Staff'), id: 'messages', visible: false },
    { rule: 'a Staff user sees the patient list', ctx: context('Staff'), id: 'patientList', visible: true },
    { rule: 'a Staff user sees Media Center', ctx: context('Staff'), id: 'mediaList', visible: true },
    { rule: 'a Doctor does not see the FAQ, which needs the admin role', ctx: context('Doctor'), id: 'faq', visible: false },
    { rule: 'a System Manager sees the FAQ', ctx: context('SystemManager'), id: 'faq', visible: true },
    { rule: 'a Staff user sees Staff Appointments', ctx: context('Staff'), id: 'staffAppointments', visible: true },
    { rule: 'a Doctor does not see Staff Appointments', ctx: context('Doctor'), id: 'staffAppointments', visible: false },
    {
      rule: 'a Doctor sees the Provider Appointment Dashboard',
      ctx: context('Doctor'),
      id: 'providerAppointmentDashboard',
      visible: true,
    },
    {
      rule: 'the Provider Appointment Dashboard hides while enableProviderAppointmentDashboard is off',
      ctx: context('Admin', { flags: { providerAppointmentDashboard: false } }),
      id: 'providerAppointmentDashboard',
      visible: false,
    },
    {
      rule: 'the Provider Appointment Dashboard hides for a System Manager too while the clinic has it off',
      ctx: context('SystemManager', { flags: { providerAppointmentDashboard: false } }),
      id: 'providerAppointmentDashboard',
      visible: false,
    },
    {
      rule: 'a Staff user sees Chatter Notification, which the bell opens',
      ctx: context('Staff'),
      id: 'chatterNotification',
      visible: true,
    },
    { rule: 'an Admin sees the Patient Hotlist', ctx: context('Admin'), id: 'patientHotlist', visible: true },
    { rule: 'an Admin sees Patient Campaigns', ctx: context('Admin'), id: 'patientCampaigns', visible: true },
    { rule: 'an Admin sees Campaign Results', ctx: context('Admin'), id: 'campaignResults', visible: true },
    { rule: 'a System Manager sees Patient Campaigns', ctx: context('SystemManager'), id: 'patientCampaigns', visible: true },
    // Decision 0049: Doctors see Campaign Results only; Staff work the hot lists; campaigns are for managers.
    { rule: 'a Doctor sees Campaign Results', ctx: context('Doctor'), id: 'campaignResults', visible: true },
    { rule: 'a Doctor sees the Campaigns group that holds the results', ctx: context('Doctor'), id: 'campaigns', visible: true },
    { rule: 'a Doctor does not get Patient Campaigns', ctx: context('Doctor'), id: 'patientCampaigns', visible: false },
    { rule: 'a Doctor does not get the Patient Hotlist', ctx: context('Doctor'), id: 'patientHotlist', visible: false },
    { rule: 'a Staff user sees the Patient Hotlist they work', ctx: context('Staff'), id: 'patientHotlist', visible: true },
    {
      rule: 'a Staff user sees the Campaigns group that holds the hot lists',
      ctx: context('Staff'),
      id: 'campaigns',
      visible: true,
    },
    { rule: 'a Staff user does not get Patient Campaigns', ctx: context('Staff'), id: 'patientCampaigns', visible: false },
    { rule: 'a Staff user does not get Campaign Results', ctx: context('Staff'), id: 'campaignResults', visible: false },
    {
      rule: 'a Doctor loses Campaign Results when campaigns are disabled',
      ctx: context('Doctor', { flags: { campaignsEnabled: false } }),
      id: 'campaignResults',
      visible: false,
    },
    {
      rule: 'a Staff user loses the Patient Hotlist when campaigns are disabled',
      ctx: context('Staff', { flags: { campaignsEnabled: false } }),
      id: 'patientHotlist',
      visible: false,
    },
    {
      rule: 'a Doctor of a campaign-only clinic sees Campaign Results even with the campaigns switch off',
      ctx: context('Doctor', { flags: { campaignOnly: true, campaignsEnabled: false } }),
      id: 'campaignResults',
      visible: true,
    },
    {
      rule: 'a Staff user of a campaign-only clinic still does not get Patient Campaigns',
      ctx: context('Staff', { flags: { campaignOnly: true } }),
      id: 'patientCampaigns',
      visible: false,
    },
    {
      rule: 'campaigns are hidden when campaigns are disabled',
      ctx: context('Admin', { flags: { campaignsEnabled: false } }),
      id: 'campaigns',
      visible: false,
    },
    {
      rule: 'campaigns are hidden from System Managers too when campaigns are disabled',
      ctx: context('SystemManager', { flags: { campaignsEnabled: false } }),
      id: 'patientCampaigns',
      visible: false,
    },
    {
      rule: 'contact support is hidden when campaigns are disabled',
      ctx: context('Staff', { flags: { campaignsEnabled: false } }),
      id: 'contactSupport',
      visible: false,
    },
    {
      rule: 'a campaign-only clinic shows campaigns even with the campaigns switch off',
      ctx: context('Admin', { flags: { campaignOnly: true, campaignsEnabled: false } }),
      id: 'patientCampaigns',
      visible: true,
    },
    {
      rule: 'a campaign-only clinic hides the patient list from an Admin',
      ctx: context('Admin', { flags: { campaignOnly: true } }),
      id: 'patientList',
      visible: false,
    },
    {
      rule: 'a campaign-only clinic leaves the patient list to a System Manager',
      ctx: context('SystemManager', { flags: { campaignOnly: true } }),
      id: 'patientList',
      visible: true,
    },
    {
      rule: 'a parent user sees parent-flagged items',
      ctx: context('Admin', { isParent: true }),
      id: 'patientList',
      visible: true,
    },
    {
      rule: 'a parent user does not see items not flagged for parents',
      ctx: context('Admin', { isParent: true }),
      id: 'medicines',
      visible: false,
    },
    {
      rule: 'a parent System Manager still sees everything',
      ctx: context('SystemManager', { isParent: true }),
      id: 'medicines',
      visible: true,
    },
    {
      rule: 'in the all-clinics view a parent user cannot add a patient',
      ctx: context('Admin', { isParent: true, allClinicsView: true }),
      id: 'newPatient',
      visible: false,
    },
    {
      rule: 'with one clinic selected a parent user can add a patient',
      ctx: context('Admin', { isParent: true }),
      id: 'newPatient',
      visible: true,
    },
    {
      rule: 'a child user outside Mainstay mode gets the normal menu',
      ctx: context('Admin', { isChild: true }),
      id: 'medicines',
      visible: true,
    },
    {
      rule: 'in Mainstay mode a parent user sees mainstay-parent items',
      ctx: context('Admin', { isParent: true, flags: { mainstay: true } }),
      id: 'dataSandbox',
      visible: true,
    },
    {
      rule: 'in Mainstay mode a parent user loses items not flagged mainstay-parent',
      ctx: context('Admin', { isParent: true, flags: { mainstay: true } }),
      id: 'newPatient',
      visible: false,
    },
    {
      rule: 'in Mainstay mode a child user sees mainstay-child items',
      ctx: context('Staff', { isChild: true, flags: { mainstay: true } }),
      id: 'newPatient',
      visible: true,
    },
    {
      rule: 'in Mainstay mode a child user loses items not flagged mainstay-child',
      ctx: context('Doctor', { isChild: true, flags: { mainstay: true } }),
      id: 'reports',
      visible: false,
    },
    {
      rule: 'Mainstay mode leaves users who are neither parent nor child alone',
      ctx: context('Doctor', { flags: { mainstay: true } }),
      id: 'reports',
      visible: true,
    },
    {
      rule: 'the patient list stays visible in a Portal Pro clinic',
      ctx: context('Staff', { flags: { portalPro: true } }),
      id: 'patientList',
      visible: true,
    },
    {
      rule: 'the program-flagged Chatter Notification shows in program mode',
      ctx: context('Doctor', { flags: { programMode: true } }),
      id: 'chatterNotification',
      visible: true,
    },
  ])('$rule', ({ ctx, id, visible }) => {
    expect(ids(visibleMenu(ctx)).includes(id)).toBe(visible);
  });
});

const testTree: MenuItem[] = [
  {
    id: 'plain',
    titleKey: 'menu.pathways',
    url: '/t/plain',
    type: 'item',
    access: ['SystemManager', 'Admin', 'Doctor', 'Staff'],
  },
  { id: 'adminsOnly', titleKey: 'menu.pathways', url: '/t/admins', type: 'item', access: ['Admin'] },
  {
    id: 'programItem',
    titleKey: 'menu.pathways',
    url: '/t/program-item',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    nevro: true,
  },
  {
    id: 'programOnly',
    titleKey: 'menu.pathways',
    url: '/t/program-only',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    nevro: true,
    hideOnNevroNotEnabled: true,
  },
  {
    id: 'notInProgram',
    titleKey: 'menu.pathways',
    url: '/t/not-program',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    nevro: false,
  },
  {
    id: 'hiddenForSm',
    titleKey: 'menu.pathways',
    url: '/t/hidden-sm',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    hideOnNevroSystemManager: true,
  },
  {
    id: 'partnerOnly',
    titleKey: 'menu.pathways',
    url: '/t/partner',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    devicePartner: true,
  },
  {
    id: 'notInPartner',
    titleKey: 'menu.pathways',
    url: '/t/not-partner',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    devicePartner: false,
  },
  {
    id: 'portalProOnly',
    titleKey: 'menu.pathways',
    url: '/t/portal',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    portalpro: true,
  },
  {
    id: 'campaignForAll',
    titleKey: 'menu.patientCampaigns',
    url: '/t/campaign',
    type: 'item',
    access: ['SystemManager', 'Admin', 'Doctor', 'Staff'],
    campaigns: 'page',
  },
  {
    id: 'campaignForManagers',
    titleKey: 'menu.patientCampaigns',
    url: '/t/campaign-managers',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    campaigns: 'page',
  },
  {
    id: 'supportForAll',
    titleKey: 'menu.contactSupport',
    url: '/t/support',
    type: 'item',
    access: ['SystemManager', 'Admin', 'Doctor', 'Staff'],
    campaigns: 'support',
  },
  {
    id: 'notPortalPro',
    titleKey: 'menu.pathways',
    url: '/t/not-portal',
    type: 'item',
    access: ['SystemManager', 'Admin'],
    portalpro: false,
  },
  {
    id: 'adminCollapse',
    titleKey: 'menu.admin',
    type: 'collapse',
    access: ['SystemManager', 'Admin', 'Doctor', 'Staff'],
    children: [{ id: 'adminChild', titleKey: 'menu.rooms', url: '/t/child', type: 'item', access: ['Admin'] }],
  },
  {
    id: 'emptyGroup',
    titleKey: 'menu.reports',
    type: 'group',
    access: ['SystemManager', 'Admin', 'Doctor', 'Staff'],
    children: [{ id: 'lockedChild', titleKey: 'menu.rooms', url: '/t/locked', type: 'item', access: ['Admin'], nevro: false }],
  },
];

describe('visibility rules on per-item flags', () => {
  it.each<{ rule: string; ctx: MenuContext; id: string; visible: boolean }>([
    { rule: 'the access list must contain the role', ctx: context('Doctor'), id: 'adminsOnly', visible: false },
    {
      rule: 'a System Manager needs to be in the access list too',
      ctx: context('SystemManager'),
      id: 'adminsOnly',
      visible: false,
    },
    // Decision 0049: a campaign page follows its access list like any other item (no blanket rule by role).
    {
      rule: 'a Doctor gets a campaign page whose access list names Doctors',
      ctx: context('Doctor'),
      id: 'campaignForAll',
      visible: true,
    },
    {
      rule: 'a Staff user gets a campaign page whose access list names Staff',
      ctx: context('Staff'),
      id: 'campaignForAll',
      visible: true,
    },
    {
      rule: 'a Doctor does not get a campaign page for managers',
      ctx: context('Doctor'),
      id: 'campaignForManagers',
      visible: false,
    },
    {
      rule: 'a Staff user does not get a campaign page for managers',
      ctx: context('Staff'),
      id: 'campaignForManagers',
      visible: false,
    },
    { rule: 'an Admin gets a campaign page the access list names', ctx: context('Admin'), id: 'campaignForAll', visible: true },
    {
      rule: 'a campaign page for everyone is hidden from a Doctor when campaigns are disabled',
      ctx: context('Doctor', { flags: { campaignsEnabled: false } }),
      id: 'campaignForAll',
      visible: false,
    },
    {
      rule: 'a campaign page for everyone is hidden from Staff when campaigns are disabled',
      ctx: context('Staff', { flags: { campaignsEnabled: false } }),
      id: 'campaignForAll',
      visible: false,
    },
    { rule: 'a Staff user keeps campaign support items', ctx: context('Staff'), id: 'supportForAll', visible: true },
    { rule: 'a collapse with no visible children is dropped', ctx: context('Doctor'), id: 'adminCollapse', visible: false },
    { rule: 'a collapse with a visible child is kept', ctx: context('Admin'), id: 'adminCollapse', visible: true },
    {
      rule: 'a group left empty by program mode is dropped',
      ctx: context('Admin', { flags: { programMode: true } }),
      id: 'emptyGroup',
      visible: false,
    },
    { rule: 'program-only items are hidden when program mode is off', ctx: context('Admin'), id: 'programOnly', visible: false },
    {
      rule: 'program-only items are hidden from System Managers when program mode is off',
      ctx: context('SystemManager'),
      id: 'programOnly',
      visible: false,
    },
    {
      rule: 'with program mode on, items flagged for the program show',
      ctx: context('Admin', { flags: { programMode: true } }),
      id: 'programOnly',
      visible: true,
    },
    {
      rule: 'with program mode on, items with no program flag show',
      ctx: context('Admin', { flags: { programMode: true } }),
      id: 'plain',
      visible: true,
    },
    {
      rule: 'with program mode on, items flagged not for the program are hidden',
      ctx: context('Admin', { flags: { programMode: true } }),
      id: 'notInProgram',
      visible: false,
    },
    {
      rule: 'with program mode off, items flagged not for the program show',
      ctx: context('Admin'),
      id: 'notInProgram',
      visible: true,
    },
    {
      rule: 'with program mode off, items flagged for the program still show',
      ctx: context('Admin'),
      id: 'programItem',
      visible: true,
    },
    {
      rule: 'a System Manager sees items flagged not for the program in program mode',
      ctx: context('SystemManager', { flags: { programMode: true } }),
      id: 'notInProgram',
      visible: true,
    },
    {
      rule: 'a System Manager does not see items hidden for system managers in program mode',
      ctx: context('SystemManager', { flags: { programMode: true } }),
      id: 'hiddenForSm',
      visible: false,
    },
    {
      rule: 'items hidden for system managers show to them outside program mode',
      ctx: context('SystemManager'),
      id: 'hiddenForSm',
      visible: true,
    },
    {
      rule: 'items hidden for system managers still show to Admins in program mode',
      ctx: context('Admin', { flags: { programMode: true } }),
      id: 'hiddenForSm',
      visible: true,
    },
    {
      rule: 'with device-partner mode off, device-partner items are hidden from System Managers',
      ctx: context('SystemManager'),
      id: 'partnerOnly',
      visible: false,
    },
    {
      rule: 'with device-partner mode off, device-partner items are hidden from Admins',
      ctx: context('Admin'),
      id: 'partnerOnly',
      visible: false,
    },
    {
      rule: 'in device-partner mode an item whose marker matches shows',
      ctx: context('Admin', { flags: { devicePartnerMode: true } }),
      id: 'partnerOnly',
      visible: true,
    },
    {
      rule: 'in device-partner mode an item with no marker shows',
      ctx: context('Admin', { flags: { devicePartnerMode: true } }),
      id: 'plain',
      visible: true,
    },
    {
      rule: 'in device-partner mode an item whose marker does not match is hidden',
      ctx: context('Admin', { flags: { devicePartnerMode: true } }),
      id: 'notInPartner',
      visible: false,
    },
    {
      rule: 'in device-partner mode a System Manager still sees non-partner items',
      ctx: context('SystemManager', { flags: { devicePartnerMode: true } }),
      id: 'notInPartner',
      visible: true,
    },
    {
      rule: 'a Portal Pro item shows in a Portal Pro clinic',
      ctx: context('Admin', { flags: { portalPro: true } }),
      id: 'portalProOnly',
      visible: true,
    },
    {
      rule: 'a Portal Pro item is hidden outside Portal Pro clinics',
      ctx: context('Admin'),
      id: 'portalProOnly',
      visible: false,
    },
    {
      rule: 'a non-Portal-Pro item is hidden in a Portal Pro clinic',
      ctx: context('Admin', { flags: { portalPro: true } }),
      id: 'notPortalPro',
      visible: false,
    },
    {
      rule: 'a System Manager sees non-Portal-Pro items in a Portal Pro clinic',
      ctx: context('SystemManager', { flags: { portalPro: true } }),
      id: 'notPortalPro',
      visible: true,
    },
  ])('$rule', ({ ctx, id, visible }) => {
    expect(ids(filterMenu(testTree, ctx)).includes(id)).toBe(visible);
  });
});

describe('top-level menu of each role with default flags', () => {
  it.each<{ role: Role; labels: string[] }>([
    {
      role: 'SystemManager',
      labels: [
        'Campaigns',
        'Staff Appointments',
        'Communication Dashboard',
        'Provider Appointment Dashboard',
        'Admin',
        'Pathways',
        'Patients',
        'Reports',
        'Login Details',
        'Activity Logs',
        'Media Center',
        'Messages',
        'System Users',
        'Instance Information',
        'Clinic Information',
        'Contact Support',
      ],
    },
    {
      role: 'Admin',
      labels: [
        'Campaigns',
        'Staff Appointments',
        'Communication Dashboard',
        'Provider Appointment Dashboard',
        'Admin',
        'Pathways',
        'Patients',
        'Reports',
        'Login Details',
        'Activity Logs',
        'Media Center',
        'Messages',
        'System Users',
        'Instance Information',
        'Clinic Information',
        'Contact Support',
      ],
    },
    {
      role: 'Doctor',
      labels: [
        'Campaigns',
        'Provider Appointment Dashboard',
        'Pathways',
        'Patients',
        'Reports',
        'Media Center',
        'Messages',
        'System Users',
        'Contact Support',
      ],
    },
    {
      role: 'Staff',
      labels: ['Campaigns', 'Staff Appointments', 'Pathways', 'Patients', 'Media Center', 'Contact Support'],
    },
  ])('$role sees exactly these top-level entries', ({ role, labels }) => {
    expect(topLabels(context(role))).toEqual(labels);
  });

  it.each<{ role: Role; urls: string[] }>([
    {
      role: 'SystemManager',
      urls: ['/patientcampaigns/dashboard', '/patienthotlist/dashboard', '/patientcampaigns/results'],
    },
    { role: 'Admin', urls: ['/patientcampaigns/dashboard', '/patienthotlist/dashboard', '/patientcampaigns/results'] },
    { role: 'Doctor', urls: ['/patientcampaigns/results'] },
    { role: 'Staff', urls: ['/patienthotlist/dashboard'] },
  ])('the Campaigns group of a $role holds exactly these pages (decision 0049)', ({ role, urls }) => {
    const group = visibleMenu(context(role)).find((item) => item.id === 'campaigns');
    expect(group?.children?.map((item) => item.url)).toEqual(urls);
  });

  it.each<Role>(['SystemManager', 'Admin', 'Doctor', 'Staff'])(
    'a %s has no Campaigns group when campaigns are disabled',
    (role) => {
      expect(topLabels(context(role, { flags: { campaignsEnabled: false } }))).not.toContain('Campaigns');
    },
  );

  it('the Admin group of an Admin lists every configuration screen except Instance Settings', () => {
    const admin = visibleMenu(context('Admin')).find((item) => item.id === 'admin');
    expect(admin?.children?.map((item) => item.url)).toEqual([
      '/admin/dashboard',
      '/admin/medicines',
      '/admin/bodylocations',
      '/admin/studygroups',
      '/admin/rooms',
      '/admin/referrals',
      '/admin/painpumpmedicines',
      '/admin/interventionalitems/1',
      '/admin/interventionaldirections',
      '/admin/interventionallocations',
      '/admin/adainterventionallocations',
      '/admin/interventionalitems/2',
      '/admin/interventionalitems/3',
      '/admin/resourcetypes',
      '/admin/customfields',
      '/admin/perioperativetemplates',
      '/customforms',
    ]);
  });

  it('a campaign-only clinic shows an Admin only campaigns and contact support', () => {
    expect(topLabels(context('Admin', { flags: { campaignOnly: true } }))).toEqual(['Campaigns', 'Contact Support']);
  });

  it('a parent Admin sees only the parent-flagged sections', () => {
    expect(topLabels(context('Admin', { isParent: true }))).toEqual([
      'Campaigns',
      'Patients',
      'Reports',
      'Media Center',
      'Messages',
      'System Users',
      'Clinic Information',
      'Contact Support',
    ]);
  });

  it('a Mainstay child Staff user sees the patient intake screens and contact support', () => {
    const menu = visibleMenu(context('Staff', { isChild: true, flags: { mainstay: true } }));
    expect(ids(menu)).toEqual(['patients', 'patientList', 'newPatient', 'appointments', 'chatterNotification', 'contactSupport']);
  });
});

describe('menu table', () => {
  const all = ids(menuItems);
  const flat = (items: readonly MenuItem[]): MenuItem[] => items.flatMap((item) => [item, ...flat(item.children ?? [])]);

  it('every titleKey has an English title and every English title is used', () => {
    const keys = flat(menuItems).map((item) => item.titleKey.replace(/^menu\./, ''));
    expect(keys.filter((key) => !(key in menuTitlesEn))).toEqual([]);
    expect(Object.keys(menuTitlesEn).filter((key) => !keys.includes(key))).toEqual([]);
    expect(menuTitlesEn.patientCampaigns).toBe('Patient Campaigns');
  });

  it('ids and urls are unique', () => {
    expect(new Set(all).size).toBe(all.length);
    const urls = flat(menuItems).flatMap((item) => (item.url ? [item.url] : []));
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls).toHaveLength(48);
  });

  it('no menu url lies under another, so one item governs each path', () => {
    const urls = flat(menuItems).flatMap((item) => (item.url ? [item.url.toLowerCase()] : []));
    const nested = urls.filter((url) => urls.some((other) => url.startsWith(`${other}/`)));
    expect(nested).toEqual([]);
  });

  it('items link somewhere and collapses hold children', () => {
    for (const item of flat(menuItems)) {
      if (item.type === 'item') expect(item.url, item.id).toMatch(/^\//);
      else expect(item.children?.length, item.id).toBeGreaterThan(0);
    }
  });
});

describe('canAccessPath', () => {
  it.each<{ rule: string; ctx: MenuContext; path: string; allowed: boolean }>([
    { rule: 'an Admin cannot open Instance Settings', ctx: context('Admin'), path: '/admin/instancesettings', allowed: false },
    {
      rule: 'a System Manager opens Instance Settings',
      ctx: context('SystemManager'),
      path: '/admin/instancesettings',
      allowed: true,
    },
    { rule: 'a Staff user opens the patient list', ctx: context('Staff'), path: '/patients/list', allowed: true },
    { rule: 'a Staff user cannot open Injections', ctx: context('Staff'), path: '/admin/interventionalitems/2', allowed: false },
    { rule: 'an Admin opens Injections', ctx: context('Admin'), path: '/admin/interventionalitems/2', allowed: true },
    {
      rule: 'a path under no menu item is open to the menu: My Account',
      ctx: context('Staff'),
      path: '/my-account',
      allowed: true,
    },
    {
      rule: 'a path under no menu item is open to the menu: a patient dashboard',
      ctx: context('Doctor'),
      path: '/patients/patientdashboard/abc',
      allowed: true,
    },
    {
      rule: 'a sub-page follows its menu item: Staff cannot open a user form',
      ctx: context('Staff'),
      path: '/users/userform/42',
      allowed: false,
    },
    {
      rule: 'a sub-page follows its menu item: a Doctor opens a user form',
      ctx: context('Doctor'),
      path: '/users/userform/42',
      allowed: true,
    },
    {
      rule: 'a similar prefix is not a sub-page: pathway responses are not Pathways',
      ctx: context('Staff'),
      path: '/pathwaysresponse/7',
      allowed: true,
    },
    {
      rule: 'query, trailing slash and case do not matter',
      ctx: context('Staff'),
      path: '/Reports/Summary/?from=2024',
      allowed: false,
    },
    { rule: 'a Doctor opens the data sandbox', ctx: context('Doctor'), path: '/reports/summary?from=2024', allowed: true },
    {
      rule: 'campaign pages close when campaigns are disabled',
      ctx: context('Admin', { flags: { campaignsEnabled: false } }),
      path: '/patientcampaigns/dashboard',
      allowed: false,
    },
    {
      rule: 'a Doctor opens Campaign Results',
      ctx: context('Doctor'),
      path: '/patientcampaigns/results',
      allowed: true,
    },
    {
      rule: 'a Doctor cannot open the campaigns dashboard',
      ctx: context('Doctor'),
      path: '/patientcampaigns/dashboard',
      allowed: false,
    },
    { rule: 'a Doctor cannot open the hot lists', ctx: context('Doctor'), path: '/patienthotlist/dashboard', allowed: false },
    { rule: 'a Staff user opens the hot lists', ctx: context('Staff'), path: '/patienthotlist/dashboard', allowed: true },
    {
      rule: 'a Staff user cannot open the campaigns dashboard',
      ctx: context('Staff'),
      path: '/patientcampaigns/dashboard',
      allowed: false,
    },
    {
      rule: 'a Staff user cannot open Campaign Results',
      ctx: context('Staff'),
      path: '/patientcampaigns/results',
      allowed: false,
    },
    {
      rule: 'the hot lists close for Staff when campaigns are disabled',
      ctx: context('Staff', { flags: { campaignsEnabled: false } }),
      path: '/patienthotlist/dashboard',
      allowed: false,
    },
    {
      rule: 'Campaign Results close for a Doctor when campaigns are disabled',
      ctx: context('Doctor', { flags: { campaignsEnabled: false } }),
      path: '/patientcampaigns/results',
      allowed: false,
    },
    {
      rule: 'a parent user in the all-clinics view cannot open New Patient',
      ctx: context('Admin', { isParent: true, allClinicsView: true }),
      path: '/patients/basicintake',
      allowed: false,
    },
    {
      rule: 'the Provider Appointment Dashboard page closes while the clinic has it off',
      ctx: context('Doctor', { flags: { providerAppointmentDashboard: false } }),
      path: '/reports/providerbaselines',
      allowed: false,
    },
    {
      rule: 'a Doctor opens the Provider Appointment Dashboard while the clinic has it on',
      ctx: context('Doctor'),
      path: '/reports/providerbaselines',
      allowed: true,
    },
    {
      rule: 'a Staff user opens the chatter notification page the bell links to',
      ctx: context('Staff'),
      path: '/patients/nevro/chatternotification',
      allowed: true,
    },
    // Decision 0049: the campaign screens outside a menu url follow the item they are reached from.
    ...[
      '/patientcampaigns/newcampaign',
      '/patientcampaigns/3f0c',
      '/editcampaign/3f0c',
      '/approvedcampaign/3f0c',
      '/campaignResponse/3f0c',
      '/templateList',
      '/codepulls/templates',
      '/hotlisttemplatelist',
      '/patienthotlist/newcampaign',
    ].flatMap((path) => [
      { rule: `a Doctor may not open ${path}`, ctx: context('Doctor'), path, allowed: false },
      { rule: `a Staff user may not open ${path}`, ctx: context('Staff'), path, allowed: false },
      { rule: `an Admin opens ${path}`, ctx: context('Admin'), path, allowed: true },
      {
        rule: `an Admin may not open ${path} while campaigns are off`,
        ctx: context('Admin', { flags: { campaignsEnabled: false } }),
        path,
        allowed: false,
      },
    ]),
    { rule: 'a Doctor opens campaign results', ctx: context('Doctor'), path: '/patientcampaigns/results', allowed: true },
    { rule: 'a Staff user works a hot list', ctx: context('Staff'), path: '/patienthotlist/3f0c', allowed: true },
    { rule: 'a Doctor may not work a hot list', ctx: context('Doctor'), path: '/patienthotlist/3f0c', allowed: false },
  ])('$rule', ({ ctx, path, allowed }) => {
    expect(canAccessPath(ctx, path)).toBe(allowed);
  });
});

describe('menuAccessFor', () => {
  it.each<{ url: string; access: Role[] | undefined }>([
    { url: '/admin/instancesettings', access: ['SystemManager'] },
    { url: '/pathways', access: ['SystemManager', 'Admin', 'Doctor', 'Staff'] },
    { url: '/patientcampaigns/results', access: ['SystemManager', 'Admin', 'Doctor'] },
    { url: '/patientcampaigns/dashboard', access: ['SystemManager', 'Admin'] },
    { url: '/patienthotlist/dashboard', access: ['SystemManager', 'Admin', 'Staff'] },
    { url: '/resources/faq', access: ['SystemManager', 'Admin'] },
    { url: '/my-account', access: undefined },
    { url: '/users/userform/1', access: undefined },
  ])('$url is for $access', ({ url, access }) => {
    expect(menuAccessFor(url)).toEqual(access);
  });

  it('never grants more than the groups above an item: the guard agrees with the drawn menu for every role', () => {
    const roles: Role[] = ['SystemManager', 'Admin', 'Doctor', 'Staff'];
    const urls = (items: readonly { url?: string; children?: readonly unknown[] }[]): string[] =>
      items.flatMap((item) => [...(item.url ? [item.url] : []), ...urls((item.children ?? []) as typeof items)]);
    for (const url of urls(menuItems)) {
      for (const role of roles) {
        const drawn = canAccessPath(context(role), url);
        // Feature flags can hide an item from a role the guard admits; never the other way round.
        if (drawn) expect(menuAccessFor(url), `${role} ${url}`).toContain(role);
      }
    }
    expect(menuAccessFor('/admin/medicines')).toEqual(['SystemManager', 'Admin']);
  });

  it('returns a copy that cannot change the menu', () => {
    menuAccessFor('/admin/instancesettings')?.push('Staff');
    expect(menuAccessFor('/admin/instancesettings')).toEqual(['SystemManager']);
  });
});

describe('the home page a user is sent to (issue #24 §5)', () => {
  it('is a page the user can open: Doctor and Staff of a campaign-only clinic start on their own menu', () => {
    const campaignOnly = { flags: { campaignOnly: true } };
    expect(homePathFor(context('Admin', campaignOnly))).toBe('/patientcampaigns/dashboard');
    expect(homePathFor(context('SystemManager', campaignOnly))).toBe('/patientcampaigns/dashboard');
    for (const role of ['Doctor', 'Staff'] as const) {
      const ctx = context(role, campaignOnly);
      expect(canAccessPath(ctx, '/patientcampaigns/dashboard')).toBe(false);
      const home = homePathFor(ctx);
      expect(canAccessPath(ctx, home), `${role}: ${home}`).toBe(true);
      expect(home).not.toBe('/patientcampaigns/dashboard');
    }
    expect(homePathFor(context('Staff', campaignOnly))).toBe('/patienthotlist/dashboard');
    expect(homePathFor(context('Doctor'))).toBe('/patients/list');
  });
});
