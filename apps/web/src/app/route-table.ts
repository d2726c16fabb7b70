import type { ComponentType } from 'react';
import { homePathFor } from '@pathwell/contracts/menu';
import type { SessionContext } from '@pathwell/contracts/session';
import { menuContextOf } from './session-context';

/**
 * Every route of specification section 2 with its nature: `open` needs no sign-in, `auth` needs a
 * signed-in user and is drawn inside the shell. A route without `page` is not built yet and shows
 * the coming-soon page. Paths use React Router syntax (`:id`, `:id?` optional); matching ignores case.
 */
export type RouteAccess = 'open' | 'auth';
export type PageModule = { Component: ComponentType };
export type RouteEntry = { path: string; access: RouteAccess; page?: () => Promise<PageModule> };

const open = (path: string, page?: RouteEntry['page']): RouteEntry => ({ path, access: 'open', ...(page ? { page } : {}) });
const auth = (path: string, page?: RouteEntry['page']): RouteEntry => ({ path, access: 'auth', ...(page ? { page } : {}) });

export const routeTable: RouteEntry[] = [
  // Account
  open('/signin', () => import('../routes/account/sign-in')),
  open('/signup', () => import('../routes/account/sign-up')),
  open('/confirm-signup', () => import('../routes/account/confirm-sign-up')),
  open('/forget-password', () => import('../routes/account/forget-password')),
  open('/reset-password', () => import('../routes/account/set-password')),
  open('/set-password', () => import('../routes/account/set-password')),
  open('/already-set-up', () => import('../routes/account/already-set-up')),
  open('/terms-and-conditions', () => import('../routes/account/terms')),
  auth('/change-password', () => import('../routes/account/change-password')),
  auth('/my-account', () => import('../routes/account/my-account')),
  // Demo-mode outbox: where a newcomer reads the emails the server would have sent.
  auth('/outbox', () => import('../routes/outbox')),

  // Admin
  auth('/admin/dashboard', () => import('../routes/admin/dashboard')),
  auth('/admin/bodylocations', () => import('../routes/admin/managed-list')),
  auth('/admin/medicines', () => import('../routes/admin/managed-list')),
  auth('/admin/studygroups', () => import('../routes/admin/managed-list')),
  auth('/admin/rooms', () => import('../routes/admin/managed-list')),
  auth('/admin/interventionalitems/:type', () => import('../routes/admin/managed-list')),
  auth('/admin/interventionaldirections', () => import('../routes/admin/managed-list')),
  auth('/admin/interventionallocations', () => import('../routes/admin/managed-list')),
  auth('/admin/adainterventionallocations', () => import('../routes/admin/managed-list')),
  auth('/admin/instancesettings', () => import('../routes/admin/instance-settings')),
  auth('/admin/referrals', () => import('../routes/admin/managed-list')),
  auth('/admin/resourcetypes', () => import('../routes/admin/managed-list')),
  auth('/admin/painpumpmedicines', () => import('../routes/admin/managed-list')),
  // Not in the side menu: custom-field values by kind and perioperative message templates (decision 0008).
  auth('/admin/customfields/:kind?', () => import('../routes/admin/custom-fields')),
  auth('/admin/perioperativetemplates', () => import('../routes/admin/perioperative-templates')),
  auth('/admin/procedurenotetemplates', () => import('../routes/admin/procedure-note-templates')),
  auth('/pathways', () => import('../routes/pathways/list')),
  auth('/pathwaysresponse/:id', () => import('../routes/pathways/response')),
  auth('/communicationdashboard', () => import('../routes/communications/dashboard')),

  // Patients
  auth('/patients/dashboard', () => import('../routes/patients/dashboard')),
  auth('/patients/list', () => import('../routes/patients/list')),
  auth('/patients/create/:id', () => import('../routes/patients/create')),
  auth('/patients/createnevro/:id/:nevroCaseId'),
  auth('/patients/patientdashboard/:id', () => import('../routes/patients/patient-dashboard')),
  auth('/patients/basicintake', () => import('../routes/patients/basic-intake')),
  auth('/patients/basicintakenevro'),
  auth('/patients/appointments', () => import('../routes/patients/appointments')),
  auth('/patients/staffappointments', () => import('../routes/patients/staff-appointments')),
  auth('/formresponse/result/:id', () => import('../routes/questionnaires/form-response')),
  auth('/patients/intervention/interventionform/:id/:patientid', () => import('../routes/patients/intervention-form')),
  auth('/patients/bulkintakenotification', () => import('../routes/patients/bulk-intake')),
  // The doctor's printable one-pager of a visit (section 7 "GET one-pager"; not a page of section 2).
  auth('/patients/:patientId/appointments/:appointmentId/one-pager', () => import('../routes/patients/one-pager')),
  auth('/patients/procedurenoteform/:id/:patientid/:providerId/:type', () => import('../routes/patients/procedure-note-form')),
  auth('/patients/basicintakemainstay'),
  auth('/patients/createmainstay/:id'),
  auth('/patients/nevro/chatternotification', () => import('../routes/patients/chatter-notification')),

  // Patient-facing
  open('/patients/closeaccount/:id?/:token?'),
  open('/patients/intake/:id?/:token?/:appointmentId?'),
  // Questionnaire links (/patients/{form}/{token}/…) and /customform/{token}/surveryform are served by
  // the separate patient bundle (apps/web/patient.html), not by this router.
  // The bare path is the staff dashboard of the side menu; with a patient id it is the patient's view.
  auth('/patients/appointmentdashboard', () => import('../routes/patients/appointment-dashboard')),
  open('/patients/appointmentdashboard/:id/:appointmentid?/:revisit?'),
  open('/patients/intakenotavailable'),
  open('/patients/intakecomplete'),
  // The clinic's own terms and privacy policy (?clinic=), else Pathwell's standard ones (decision 0033).
  open('/termsandconditions', () => import('../routes/legal/terms')),
  open('/privacypolicy', () => import('../routes/legal/privacy')),
  open('/mainstayconsent'),
  open('/checkincomplete'),
  open('/homecheckincomplete'),
  open('/newpatientpaperwork/:id?'),
  open('/newpatientpaperworkdrchorono/:id?'),
  open('/patients/resignconsent/:id?'),
  open('/patients/:patientid/appointments/:appointmentid/healthhistoryforms/:formid?'),
  open('/patients/:patientid/appointments/:patientappointmentid/customscreeners'),
  open('/patients/:patientId/clientInfo/:appointmentId'),
  open('/patients/:patientId/clientenquiry/:appointmentId/client-enquiry'),
  open('/periodicvas/:patientId/:patientAppointmentId'),
  open('/thankyou'),
  open('/exit'),
  open('/clinical/healthhistoryform'),
  open('/patients/:patientId/payment/:patientAppointmentId'),
  open('/patients/nevro/intake/patient/:id/:nevroCaseId'),
  open('/patients/nevro/intake/doctor/:id/:nevroCaseId'),
  open('/patients/digitalconsentform/:id'),
  open('/patients/nevro/doctor/document/sign/:nevroCaseId/:fileId'),
  open('/patients/intakegreenway/:id'),
  open('/nevro/doctor/consent/:id'),

  // Reports
  auth('/reports/summary', () => import('../routes/reports/summary')),
  auth('/reports/patientsspotlight', () => import('../routes/reports/patients-spotlight')),
  auth('/reports/patientsperformancemeasure', () => import('../routes/reports/performance-measure')),
  auth('/reports/surveyreport', () => import('../routes/reports/survey-report')),
  auth('/reports/officevisits', () => import('../routes/reports/office-visits')),
  auth('/reports/refferaltracker', () => import('../routes/reports/referral-tracker')),
  auth('/reports/providerbaselines', () => import('../routes/reports/provider-baselines')),

  // Users, instances, clinics
  open('/users/profile/:id', () => import('../routes/users/profile')),
  auth('/users/userform/:id?', () => import('../routes/users/user-form')),
  auth('/users', () => import('../routes/users/list')),
  auth('/logindetails', () => import('../routes/login-details')),
  auth('/activitylogs', () => import('../routes/activity-logs')),
  auth('/instances/instanceform/:id?', () => import('../routes/instances/instance-form')),
  auth('/instances', () => import('../routes/instances/list')),
  // System Manager: licensed questionnaire wording per clinic (issue #5; guarded by its menu item).
  auth('/instruments', () => import('../routes/questionnaires/instruments')),
  auth('/clinics/clinicform/:id?', () => import('../routes/clinics/clinic-form')),
  auth('/clinics', () => import('../routes/clinics/list')),

  // Resources
  auth('/resources/list'),
  auth('/resources/activity'),
  auth('/resources/resourceform/:id?'),
  auth('/resources/faq'),

  // Messaging
  auth('/user-messages/conversations/:userId', () => import('../routes/user-messages/thread')),
  auth('/user-messages', () => import('../routes/user-messages/conversations')),

  // Demo
  open('/demo/dashboard'),
  open('/demo/educationalResources'),

  // Custom forms
  open('/nevroaccessrequest'),
  open('/customform/:id/reactiveight/:appointmentid'),
  open('/mainstaysubmission'),
  open('/submissionexists'),
  open('/mainstaycancel'),
  auth('/customforms', () => import('../routes/custom-forms/list')),
  auth('/customforms/:id', () => import('../routes/custom-forms/builder')),
  auth('/customformresponse/view/:id', () => import('../routes/questionnaires/form-response')),

  // Campaigns and hot list
  auth('/patientcampaigns/dashboard', () => import('../routes/outreach/campaign-dashboard')),
  auth('/patientcampaigns/newcampaign', () => import('../routes/outreach/campaign-new')),
  auth('/patientcampaigns/results', () => import('../routes/outreach/campaign-results')),
  auth('/codepulls/templates', () => import('../routes/outreach/code-pull-template')),
  auth('/patientcampaigns/:id', () => import('../routes/outreach/campaign-overview')),
  auth('/approvedcampaign/:id', () => import('../routes/outreach/campaign-approved')),
  auth('/editcampaign/:id', () => import('../routes/outreach/campaign-edit')),
  auth('/campaignResponse/:id', () => import('../routes/outreach/campaign-responses')),
  auth('/templateList', () => import('../routes/outreach/template-list')),
  auth('/contactsupport', () => import('../routes/contact-support')),
  auth('/patienthotlist/dashboard', () => import('../routes/outreach/hotlist-dashboard')),
  auth('/patienthotlist/newcampaign', () => import('../routes/outreach/hotlist-new')),
  auth('/patienthotlist/:id', () => import('../routes/outreach/hotlist-call')),
  auth('/hotlisttemplatelist', () => import('../routes/outreach/hotlist-template-list')),
];

/** Error pages of section 2, open to everyone. */
export const errorPagePaths = {
  notFound: '/error-pages/error-404',
  unexpected: '/error-pages/unexpected',
  unauthorized: '/error-pages/unauthorized',
  serverError: '/error-pages/error-500',
  maintenance: '/error-pages/maintenance',
  comingSoon: '/error-pages/coming-soon',
} as const;

/** Where `/` and a finished sign-in lead (section 2): the user's home, one they can open (contracts/menu). */
export function homePath(session: SessionContext): string {
  return homePathFor(menuContextOf(session));
}
