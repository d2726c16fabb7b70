import type { Role } from './roles';
import type { MenuFlags } from './session';

/** English side-menu labels of specification section 2 "Layout", keyed by title key without `menu.`. */
export const menuTitlesEn = {
  campaigns: 'Campaigns',
  patientCampaigns: 'Patient Campaigns',
  patientHotlist: 'Patient Hotlist',
  campaignResults: 'Campaign Results',
  staffAppointments: 'Staff Appointments',
  communicationDashboard: 'Communication Dashboard',
  providerAppointmentDashboard: 'Provider Appointment Dashboard',
  admin: 'Admin',
  adminDashboard: 'Dashboard',
  medicines: 'Medicines',
  ptLocations: 'PT Locations',
  cohorts: 'Cohorts',
  rooms: 'Rooms',
  referrals: 'Referrals',
  painPumpMedicines: 'Pain Pump Medicines',
  interventionalProcedures: 'Interventional Procedures',
  interventionalDirections: 'Interventional Directions',
  interventionalLocations: 'Interventional Locations',
  adaInterventionalLocations: 'Ada Interventional Locations',
  injections: 'Injections',
  bodyParts: 'Body Parts',
  instanceSettings: 'Instance Settings',
  questionnaireWording: 'Questionnaire Wording',
  resourceTypes: 'Resource Types',
  customFields: 'Custom Fields',
  perioperativeTemplates: 'Perioperative Messages',
  customForms: 'Custom Forms',
  pathways: 'Pathways',
  patients: 'Patients',
  patientsDashboard: 'Dashboard',
  apptDashboard: 'Appt Dashboard',
  patientList: 'Patients',
  newPatient: 'New Patient',
  appointments: 'Appointments',
  chatterNotification: 'Chatter Notification',
  reports: 'Reports',
  dataSandbox: 'Data Sandbox',
  patientSpotlight: 'Patient Spotlight',
  performanceMeasure: 'Performance Measure',
  officeVisits: 'Office Visits',
  referralTracker: 'Referral Tracker',
  surveyReport: 'Survey Report',
  loginDetails: 'Login Details',
  activityLogs: 'Activity Logs',
  mediaCenter: 'Media Center',
  mediaList: 'Media List',
  mediaActivity: 'Media Activity',
  faq: 'FAQ',
  messages: 'Messages',
  systemUsers: 'System Users',
  instanceInformation: 'Instance Information',
  clinicInformation: 'Clinic Information',
  contactSupport: 'Contact Support',
} satisfies Record<string, string>;

export type MenuTitle = keyof typeof menuTitlesEn;

/**
 * One side-menu entry (specification section 3 "Menu item"). The `nevro*` fields keep the spec's
 * names and all refer to program mode; the white-label brand has its own `devicePartner` marker
 * (docs/decisions/0004-menu-visibility.md).
 */
export type MenuItem = {
  id: string;
  titleKey: `menu.${MenuTitle}`;
  url?: string;
  type: 'group' | 'collapse' | 'item';
  access: Role[];
  /** A Tabler icon component name; the web maps names to components. */
  icon?: string;
  children?: MenuItem[];
  /** Program marker: false hides the item in program mode; true marks a program item. */
  nevro?: boolean;
  /** Shown only in program mode. */
  hideOnNevroNotEnabled?: boolean;
  /** Hidden for System Managers in program mode. */
  hideOnNevroSystemManager?: boolean;
  /** White-label marker: true shows only in device-partner mode, false never in it. */
  devicePartner?: boolean;
  /** Portal Pro marker: true shows only in Portal Pro clinics, false only outside them. */
  portalpro?: boolean;
  /** Shown to parent users. */
  isParent?: boolean;
  /** Shown to parent users in Mainstay mode. */
  mainstayParent?: boolean;
  /** Shown to child users in Mainstay mode. */
  mainstayChild?: boolean;
  /** Part of campaigns: 'page' is a campaign screen, 'support' goes with campaigns (Contact Support). */
  campaigns?: 'page' | 'support';
  /** Needs one selected clinic: hidden in the parent all-clinics view. */
  singleClinic?: boolean;
  /** Shown only while the clinic has `enableProviderAppointmentDashboard` on (decision 0048). */
  providerAppointmentDashboard?: boolean;
};

export type MenuContext = {
  role: Role;
  isParent: boolean;
  isChild: boolean;
  allClinicsView: boolean;
  flags: MenuFlags;
};

const roles = (...list: Role[]): Role[] => list;
const everyone = (): Role[] => roles('SystemManager', 'Admin', 'Doctor', 'Staff');
const managers = (): Role[] => roles('SystemManager', 'Admin');
const reporting = (): Role[] => roles('SystemManager', 'Admin', 'Doctor');

/** For parent users, and for parent and child users of a Mainstay clinic. */
const parentAndMainstay = { isParent: true, mainstayParent: true, mainstayChild: true } as const;

function adminItem(id: MenuTitle, url: string, icon: string): MenuItem {
  return {
    id,
    titleKey: `menu.${id}`,
    url,
    type: 'item',
    access: managers(),
    icon,
  };
}

/** The whole side menu in the order of specification section 2 "Layout". */
export const menuItems: MenuItem[] = [
  {
    id: 'campaigns',
    titleKey: 'menu.campaigns',
    type: 'collapse',
    // Section 6: the group is for System Managers, Admins and Staff, and Campaign Results "also Doctor".
    // A group's access bounds its items' (menuAccessFor), so it names Doctor too. Decision 0049: Doctors
    // see Campaign Results only, Staff the hot lists they work; campaigns themselves are for managers.
    access: roles('SystemManager', 'Admin', 'Staff', 'Doctor'),
    icon: 'IconSpeakerphone',
    campaigns: 'page',
    isParent: true,
    children: [
      {
        id: 'patientCampaigns',
        titleKey: 'menu.patientCampaigns',
        url: '/patientcampaigns/dashboard',
        type: 'item',
        access: managers(),
        icon: 'IconSpeakerphone',
        campaigns: 'page',
        isParent: true,
      },
      {
        id: 'patientHotlist',
        titleKey: 'menu.patientHotlist',
        url: '/patienthotlist/dashboard',
        type: 'item',
        // Staff work the call lists (issue #15 §4, decision 0049); building lists stays with managers.
        access: roles('SystemManager', 'Admin', 'Staff'),
        icon: 'IconFlame',
        campaigns: 'page',
        isParent: true,
      },
      {
        id: 'campaignResults',
        titleKey: 'menu.campaignResults',
        url: '/patientcampaigns/results',
        type: 'item',
        access: reporting(),
        icon: 'IconChartBar',
        campaigns: 'page',
        isParent: true,
      },
    ],
  },
  {
    id: 'staffAppointments',
    titleKey: 'menu.staffAppointments',
    url: '/patients/staffappointments',
    type: 'item',
    access: roles('SystemManager', 'Admin', 'Staff'),
    icon: 'IconCalendarUser',
  },
  {
    id: 'communicationDashboard',
    titleKey: 'menu.communicationDashboard',
    url: '/communicationdashboard',
    type: 'item',
    access: managers(),
    icon: 'IconBroadcast',
  },
  {
    id: 'providerAppointmentDashboard',
    titleKey: 'menu.providerAppointmentDashboard',
    url: '/reports/providerbaselines',
    type: 'item',
    access: reporting(),
    icon: 'IconCalendarStats',
    providerAppointmentDashboard: true,
  },
  {
    id: 'admin',
    titleKey: 'menu.admin',
    type: 'collapse',
    access: managers(),
    icon: 'IconSettings',
    children: [
      adminItem('adminDashboard', '/admin/dashboard', 'IconLayoutDashboard'),
      adminItem('medicines', '/admin/medicines', 'IconPill'),
      adminItem('ptLocations', '/admin/bodylocations', 'IconMapPin'),
      adminItem('cohorts', '/admin/studygroups', 'IconUsersGroup'),
      adminItem('rooms', '/admin/rooms', 'IconDoor'),
      adminItem('referrals', '/admin/referrals', 'IconTransfer'),
      adminItem('painPumpMedicines', '/admin/painpumpmedicines', 'IconDroplet'),
      adminItem('interventionalProcedures', '/admin/interventionalitems/1', 'IconStethoscope'),
      adminItem('interventionalDirections', '/admin/interventionaldirections', 'IconDirections'),
      adminItem('interventionalLocations', '/admin/interventionallocations', 'IconMapPins'),
      adminItem('adaInterventionalLocations', '/admin/adainterventionallocations', 'IconAccessible'),
      adminItem('injections', '/admin/interventionalitems/2', 'IconVaccine'),
      adminItem('bodyParts', '/admin/interventionalitems/3', 'IconBodyScan'),
      {
        id: 'instanceSettings',
        titleKey: 'menu.instanceSettings',
        url: '/admin/instancesettings',
        type: 'item',
        access: roles('SystemManager'),
        icon: 'IconAdjustments',
      },
      // Not in the specification's menu: licensed questionnaire wording is imported per clinic (issue #5).
      {
        id: 'questionnaireWording',
        titleKey: 'menu.questionnaireWording',
        url: '/instruments',
        type: 'item',
        access: roles('SystemManager'),
        icon: 'IconFiles',
      },
      adminItem('resourceTypes', '/admin/resourcetypes', 'IconCategory'),
      // Not in the specification's menu; the lists exist (section 7) and need a way in.
      adminItem('customFields', '/admin/customfields', 'IconForms'),
      adminItem('perioperativeTemplates', '/admin/perioperativetemplates', 'IconMessages'),
      // Not in the specification's menu; the form builder of issue 5 needs a way in (decision 0018).
      adminItem('customForms', '/customforms', 'IconClipboardList'),
    ],
  },
  // Section 6 gives Pathways to all four roles while the Admin group is for Admins and System
  // Managers, so it stands on its own (decision 0026): a Doctor or Staff member reaches it too.
  {
    id: 'pathways',
    titleKey: 'menu.pathways',
    url: '/pathways',
    type: 'item',
    access: everyone(),
    icon: 'IconRoute',
  },
  {
    id: 'patients',
    titleKey: 'menu.patients',
    type: 'collapse',
    access: everyone(),
    icon: 'IconUsers',
    ...parentAndMainstay,
    children: [
      {
        id: 'patientsDashboard',
        titleKey: 'menu.patientsDashboard',
        url: '/patients/dashboard',
        type: 'item',
        access: everyone(),
        icon: 'IconLayoutDashboard',
        isParent: true,
        mainstayParent: true,
      },
      {
        id: 'apptDashboard',
        titleKey: 'menu.apptDashboard',
        url: '/patients/appointmentdashboard',
        type: 'item',
        access: everyone(),
        icon: 'IconCalendarEvent',
        isParent: true,
      },
      {
        id: 'patientList',
        titleKey: 'menu.patientList',
        url: '/patients/list',
        type: 'item',
        access: everyone(),
        icon: 'IconList',
        ...parentAndMainstay,
      },
      {
        id: 'newPatient',
        titleKey: 'menu.newPatient',
        url: '/patients/basicintake',
        type: 'item',
        access: everyone(),
        icon: 'IconUserPlus',
        isParent: true,
        mainstayChild: true,
        singleClinic: true,
      },
      {
        id: 'appointments',
        titleKey: 'menu.appointments',
        url: '/patients/appointments',
        type: 'item',
        access: everyone(),
        icon: 'IconCalendar',
        isParent: true,
        mainstayChild: true,
      },
      {
        id: 'chatterNotification',
        titleKey: 'menu.chatterNotification',
        url: '/patients/nevro/chatternotification',
        type: 'item',
        access: everyone(),
        icon: 'IconBell',
        // The top-bar bell opens this page in every clinic, so it is a program item that never hides.
        nevro: true,
        ...parentAndMainstay,
      },
    ],
  },
  {
    id: 'reports',
    titleKey: 'menu.reports',
    type: 'collapse',
    access: reporting(),
    icon: 'IconReportAnalytics',
    isParent: true,
    mainstayParent: true,
    children: (
      [
        ['dataSandbox', '/reports/summary', 'IconDatabase'],
        ['patientSpotlight', '/reports/patientsspotlight', 'IconStar'],
        ['performanceMeasure', '/reports/patientsperformancemeasure', 'IconChartLine'],
        ['officeVisits', '/reports/officevisits', 'IconBuildingHospital'],
        ['referralTracker', '/reports/refferaltracker', 'IconArrowsSplit'],
        ['surveyReport', '/reports/surveyreport', 'IconClipboardList'],
      ] as const
    ).map(([id, url, icon]): MenuItem => ({
      id,
      titleKey: `menu.${id}`,
      url,
      type: 'item',
      access: reporting(),
      icon,
      isParent: true,
      mainstayParent: true,
    })),
  },
  {
    id: 'loginDetails',
    titleKey: 'menu.loginDetails',
    url: '/logindetails',
    type: 'item',
    access: managers(),
    icon: 'IconLogin',
  },
  {
    id: 'activityLogs',
    titleKey: 'menu.activityLogs',
    url: '/activitylogs',
    type: 'item',
    access: managers(),
    icon: 'IconHistory',
  },
  {
    id: 'mediaCenter',
    titleKey: 'menu.mediaCenter',
    type: 'collapse',
    access: everyone(),
    icon: 'IconMovie',
    isParent: true,
    children: [
      {
        id: 'mediaList',
        titleKey: 'menu.mediaList',
        url: '/resources/list',
        type: 'item',
        access: everyone(),
        icon: 'IconFiles',
        isParent: true,
      },
      {
        id: 'mediaActivity',
        titleKey: 'menu.mediaActivity',
        url: '/resources/activity',
        type: 'item',
        access: everyone(),
        icon: 'IconActivity',
        isParent: true,
      },
      {
        id: 'faq',
        titleKey: 'menu.faq',
        url: '/resources/faq',
        type: 'item',
        access: managers(),
        icon: 'IconHelp',
        isParent: true,
      },
    ],
  },
  {
    id: 'messages',
    titleKey: 'menu.messages',
    url: '/user-messages',
    type: 'item',
    access: reporting(),
    icon: 'IconMessage',
    ...parentAndMainstay,
  },
  {
    id: 'systemUsers',
    titleKey: 'menu.systemUsers',
    url: '/users',
    type: 'item',
    access: reporting(),
    icon: 'IconUserCog',
    isParent: true,
    mainstayParent: true,
  },
  {
    id: 'instanceInformation',
    titleKey: 'menu.instanceInformation',
    url: '/instances',
    type: 'item',
    access: managers(),
    icon: 'IconServer',
  },
  {
    id: 'clinicInformation',
    titleKey: 'menu.clinicInformation',
    url: '/clinics',
    type: 'item',
    access: managers(),
    icon: 'IconBuildingCommunity',
    isParent: true,
    mainstayParent: true,
  },
  {
    id: 'contactSupport',
    titleKey: 'menu.contactSupport',
    url: '/contactsupport',
    type: 'item',
    access: everyone(),
    icon: 'IconHeadset',
    campaigns: 'support',
    ...parentAndMainstay,
  },
];

/**
 * Whether one entry passes the visibility rules of specification section 6, ignoring its children.
 * Feature rules (campaigns, program-only, device-partner items, all-clinics view) bind everyone;
 * "System Manager sees all" exempts System Managers from the rules that shape the menu per user.
 */
function isEntryVisible(item: MenuItem, ctx: MenuContext): boolean {
  const { role, flags } = ctx;
  const isSystemManager = role === 'SystemManager';
  // A campaign-only clinic with the campaigns switch off would otherwise have an empty menu.
  const campaignsAvailable = flags.campaignsEnabled || flags.campaignOnly;

  if (!item.access.includes(role)) return false;
  if (item.campaigns && !campaignsAvailable) return false;
  if (item.hideOnNevroNotEnabled && !flags.programMode) return false;
  if (item.devicePartner === true && !flags.devicePartnerMode) return false;
  if (item.singleClinic && ctx.allClinicsView) return false;
  if (item.providerAppointmentDashboard && !flags.providerAppointmentDashboard) return false;

  if (isSystemManager) return !(item.hideOnNevroSystemManager && flags.programMode);

  if (flags.campaignOnly && !item.campaigns) return false;
  if (flags.devicePartnerMode && item.devicePartner === false) return false;
  if (flags.programMode && item.nevro === false) return false;
  if (item.portalpro !== undefined && item.portalpro !== flags.portalPro) return false;
  if (flags.mainstay && ctx.isParent) return item.mainstayParent === true;
  if (flags.mainstay && ctx.isChild) return item.mainstayChild === true;
  if (ctx.isParent) return item.isParent === true;
  return true;
}

/** The visibility rules applied to any menu tree; groups and collapses left empty are dropped. */
export function filterMenu(items: readonly MenuItem[], ctx: MenuContext): MenuItem[] {
  return items.flatMap((item): MenuItem[] => {
    if (!isEntryVisible(item, ctx)) return [];
    if (item.type === 'item') return [item];
    const children = filterMenu(item.children ?? [], ctx);
    return children.length > 0 ? [{ ...item, children }] : [];
  });
}

export function visibleMenu(ctx: MenuContext): MenuItem[] {
  return filterMenu(menuItems, ctx);
}

function normalizePath(path: string): string {
  const withoutQuery = path.split(/[?#]/, 1)[0] ?? '';
  const trimmed = withoutQuery.replace(/\/+$/, '').toLowerCase();
  return trimmed === '' ? '/' : trimmed;
}

function flatten(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((item) => [item, ...flatten(item.children ?? [])]);
}

const linkedItems = flatten(menuItems).filter((item) => item.url !== undefined);

/**
 * Who may open each linked item: its own access narrowed by every group above it, so the server's
 * guard and the drawn menu never disagree (an item inside the Admin group is never wider than Admin).
 */
const effectiveAccess = new Map<string, Role[]>();
(function collect(items: readonly MenuItem[], inherited: readonly Role[]) {
  for (const item of items) {
    const access = item.access.filter((role) => inherited.includes(role));
    if (item.url !== undefined) effectiveAccess.set(item.id, access);
    collect(item.children ?? [], access);
  }
})(menuItems, ['SystemManager', 'Admin', 'Doctor', 'Staff']);

const isUnder = (path: string, url: string): boolean => path === url || path.startsWith(`${url}/`);

/**
 * Screens reached from a menu item's page but not under its url: they follow that item's rules
 * (decision 0049). The more specific path comes first.
 */
const governedElsewhere: readonly { path: string; itemId: MenuTitle }[] = [
  { path: '/patienthotlist/newcampaign', itemId: 'patientCampaigns' },
  { path: '/patienthotlist', itemId: 'patientHotlist' },
  { path: '/patientcampaigns', itemId: 'patientCampaigns' },
  { path: '/editcampaign', itemId: 'patientCampaigns' },
  { path: '/approvedcampaign', itemId: 'patientCampaigns' },
  { path: '/campaignresponse', itemId: 'patientCampaigns' },
  { path: '/templatelist', itemId: 'patientCampaigns' },
  { path: '/codepulls', itemId: 'patientCampaigns' },
  { path: '/hotlisttemplatelist', itemId: 'patientCampaigns' },
];

/** The menu item whose url is the path or an ancestor of it (`/users` governs `/users/userform/7`). */
function governingItem(path: string): MenuItem | undefined {
  const target = normalizePath(path);
  const linked = linkedItems.find((item) => isUnder(target, normalizePath(item.url ?? '')));
  if (linked) return linked;
  const elsewhere = governedElsewhere.find((entry) => isUnder(target, entry.path));
  return elsewhere ? linkedItems.find((item) => item.id === elsewhere.itemId) : undefined;
}

/**
 * Whether a signed-in user may open a path: paths under a menu item follow that item's visibility,
 * other paths are not governed by the menu and return true (the server applies its own checks).
 */
export function canAccessPath(ctx: MenuContext, path: string): boolean {
  const item = governingItem(path);
  if (!item) return true;
  return flatten(visibleMenu(ctx)).some((visible) => visible.id === item.id);
}

/**
 * Where `/`, a finished sign-in and the clinic's name lead: the clinic's home (campaigns in a
 * campaign-only clinic, the patient list otherwise) when this user may open it, else the first page
 * of their own menu. A Doctor or Staff user of a campaign-only clinic cannot open the campaigns
 * dashboard (Admins' and System Managers'), so they start on their first menu page (issue #24 §5).
 */
export function homePathFor(ctx: MenuContext): string {
  const home = ctx.flags.campaignOnly ? '/patientcampaigns/dashboard' : '/patients/list';
  if (canAccessPath(ctx, home)) return home;
  const first = flatten(visibleMenu(ctx)).find((item) => item.url !== undefined && !/^https?:/.test(item.url));
  return first?.url ?? home;
}

export function menuAccessFor(url: string): Role[] | undefined {
  const target = normalizePath(url);
  const item = linkedItems.find((candidate) => normalizePath(candidate.url ?? '') === target);
  return item ? [...(effectiveAccess.get(item.id) ?? [])] : undefined;
}
