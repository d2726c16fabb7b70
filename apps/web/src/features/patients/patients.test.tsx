import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PatientListItem, PatientPage, PatientView } from '@pathwell/contracts/patients';
import { PatientSearch } from '../../app/shell/patient-search';
import { fakeApi, ids, type FakeCall } from '../../test/fake-api';
import { renderAt } from '../../test/render';
import { PatientForm } from './patient-form';
import { PatientList } from './patient-list';

const patientId = '66666666-6666-4666-8666-666666666666';

const row = (extra: Partial<PatientListItem> = {}): PatientListItem => ({
  id: patientId,
  firstName: 'María',
  middleName: null,
  lastName: 'González',
  fullName: 'María González',
  dateOfBirth: '1975-09-30',
  email: 'maria@example.com',
  phone: '(555) 201-3344',
  doctorId: ids.doctor,
  doctorName: 'Dana Doctor',
  status: 'active',
  archived: false,
  accountClosed: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  ...extra,
});

const page = (data: PatientListItem[], totalRecords = data.length, totalExact = true): PatientPage => ({
  totalRecords,
  totalExact,
  pageNumber: 0,
  pageSize: 15,
  data,
  message: 'OK',
  portalStatuses: [],
});

const lastFilter = (calls: FakeCall[]) =>
  calls.filter((call) => call.path === '/api/patients/filtered').at(-1)?.body as Record<string, unknown> | undefined;

const renderList = (props: Partial<Parameters<typeof PatientList>[0]> = {}) =>
  renderAt(<PatientList showAddNew canChange canDelete={false} doctorId={null} {...props} />, { path: '/patients/list' });

/** jsdom is a narrow screen: the filter panel starts folded, as on a phone. */
async function openFilters(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId('patients-filters-toggle'));
}

describe('patient list', () => {
  it('asks for Active patients, newest first, page 0 of 15, and shows them', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: '/api/patients/filtered', body: page([row()]) }]);
    renderList();
    expect(await screen.findByText('María González')).toBeInTheDocument();
    expect(screen.getByText('09/30/1975')).toBeInTheDocument();
    expect(lastFilter(calls)).toMatchObject({
      patientStatus: 'Active',
      sortBy: 'CreationStamp',
      sortDirection: 'desc',
      paginationFilter: { pageSize: 15, pageNumber: 0 },
    });
  });

  it('says "more than 10,000" when the server stopped counting, and counts all on request', async () => {
    const full = Array.from({ length: 15 }, (_, index) =>
      row({ id: `${patientId.slice(0, -2)}${String(index).padStart(2, '0')}`, fullName: `Patient ${index}` }),
    );
    const { calls } = fakeApi([{ method: 'POST', path: '/api/patients/filtered', body: page(full, 10_000, false) }]);
    const user = userEvent.setup();
    renderList();
    expect(await screen.findByTestId('patients-range')).toHaveTextContent('1–15 of more than 10,000');
    await user.click(screen.getByTestId('count-all'));
    await waitFor(() =>
      expect(lastFilter(calls)).toMatchObject({ paginationFilter: { pageSize: 15, pageNumber: 0, exactTotal: true } }),
    );
  });

  it('sends the filter panel values and the sort of a clicked column', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: '/api/patients/filtered', body: page([row()]) }]);
    const user = userEvent.setup();
    renderList({ doctorId: ids.doctor });
    await screen.findByText('María González');
    await openFilters(user);
    await user.type(screen.getByTestId('patients-filter-last-name'), 'gonz');
    await user.type(screen.getByTestId('patients-filter-phone'), '555');
    await user.type(screen.getByTestId('patients-filter-dob'), '09/30/1975');
    await user.type(screen.getByTestId('patients-filter-age-min'), '40');
    await user.click(screen.getByTestId('patients-filter-apply'));
    await waitFor(() =>
      expect(lastFilter(calls)).toMatchObject({
        lastName: 'gonz',
        phone: '555',
        dateOfBirth: '1975-09-30',
        ageMin: 40,
        doctorId: ids.doctor,
      }),
    );
    await user.click(screen.getByTestId('patients-sort-LastName'));
    await waitFor(() => expect(lastFilter(calls)).toMatchObject({ sortBy: 'LastName', sortDirection: 'asc' }));
    await user.click(screen.getByTestId('patients-sort-LastName'));
    await waitFor(() => expect(lastFilter(calls)).toMatchObject({ sortBy: 'LastName', sortDirection: 'desc' }));
  });

  it('refuses a birth date that is not MM/DD/YYYY without calling the server', async () => {
    const { calls } = fakeApi([{ method: 'POST', path: '/api/patients/filtered', body: page([]) }]);
    const user = userEvent.setup();
    renderList();
    await screen.findByTestId('patients-empty');
    await openFilters(user);
    // Only list searches count: the filter panel may still be loading its option lists meanwhile.
    const searches = () => calls.filter((call) => call.path === '/api/patients/filtered').length;
    const before = searches();
    await user.type(screen.getByTestId('patients-filter-dob'), '1975-09-30');
    await user.click(screen.getByTestId('patients-filter-apply'));
    expect(await screen.findByText('Date must be MM/DD/YYYY')).toBeInTheDocument();
    expect(searches()).toBe(before);
  });

  it('shows Add New only when allowed', async () => {
    fakeApi([{ method: 'POST', path: '/api/patients/filtered', body: page([row()]) }]);
    renderList({ showAddNew: false });
    await screen.findByText('María González');
    expect(screen.queryByTestId('patients-add')).not.toBeInTheDocument();
  });

  it('archives with a reason from the row menu', async () => {
    const { calls } = fakeApi([
      { method: 'POST', path: '/api/patients/filtered', body: page([row()]) },
      { method: 'POST', path: `/api/patients/${patientId}/archive`, body: {} },
    ]);
    const user = userEvent.setup();
    renderList();
    await user.click(await screen.findByTestId('patients-row-menu'));
    await user.click(await screen.findByTestId('patients-archive'));
    await user.click(await screen.findByTestId('patients-confirm-action'));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    await user.type(screen.getByTestId('patients-archive-reason'), 'Moved away');
    await user.click(screen.getByTestId('patients-confirm-action'));
    await waitFor(() => expect(calls.some((call) => call.path === `/api/patients/${patientId}/archive`)).toBe(true));
    const archive = calls.find((call) => call.path === `/api/patients/${patientId}/archive`)!;
    expect(archive.query.get('reason')).toBe('Moved away');
  });

  it('shows the error with a retry when the list fails', async () => {
    fakeApi([{ method: 'POST', path: '/api/patients/filtered', status: 500, body: { error: 'Boom', code: 'INTERNAL' } }]);
    renderList();
    expect(await screen.findByTestId('patients-error')).toBeInTheDocument();
  });
});

const referralId = '77777777-7777-4777-8777-777777777777';

const formRoutes = [
  { path: '/api/users/providers', body: [{ id: ids.doctor, firstName: 'Dana', lastName: 'Doctor' }] },
  { path: '/api/customfields', body: { totalRecords: 0, pageNumber: 0, pageSize: 999, data: [] } },
  {
    path: '/api/referrals',
    body: {
      totalRecords: 1,
      pageNumber: 0,
      pageSize: 999,
      data: [
        {
          id: referralId,
          listType: 'referrals',
          name: 'Helen Park, MD',
          attributes: { source: 1, practice: 'Westlake Orthopedics' },
          isActive: true,
          sortOrder: 10,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    },
  },
];

const created: PatientView = {
  id: patientId,
  firstName: 'Ana',
  middleName: null,
  lastName: 'López',
  fullName: 'Ana López',
  dateOfBirth: '1980-04-12',
  email: null,
  rpmKey: null,
  streetAddress1: null,
  streetAddress2: null,
  city: null,
  state: null,
  zip: null,
  weight: 0,
  heightFeet: null,
  heightInches: null,
  height: null,
  genderId: null,
  maritalStatusId: null,
  ethnicityId: null,
  occupationId: null,
  payorStatusId: null,
  nicotineStatusId: null,
  currentLawSuit: null,
  historySubstanceAbuse: null,
  agreementSignedDate: null,
  doctorId: null,
  enableEmail: true,
  enableText: true,
  preferredLanguage: 'en',
  extended: {},
  patientPhoneNumbers: [],
  referralSource: null,
  referringProviderId: null,
  diseaseStates: [],
  psychiatricHistory: [],
  surgicalHistory: [],
  successStory: null,
  successStorySharedAt: null,
  status: 'active',
  archivedAt: null,
  archiveReason: null,
  accountClosedAt: null,
  createdAt: '2026-02-01T10:00:00.000Z',
  updatedAt: '2026-02-01T10:00:00.000Z',
};

const renderForm = () =>
  renderAt(<PatientForm patient={null} isDoctor={false} doctorUserId={ids.admin} extendedQuestions={undefined} />, {
    path: '/patients/create/:id',
    initialPath: '/patients/create/new',
    extraRoutes: [{ path: '/patients/list', element: <p data-testid="list-page">list</p> }],
  });

describe('patient form', () => {
  it('shows the section 5 messages and sends nothing when fields are wrong', async () => {
    const { calls } = fakeApi(formRoutes);
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByTestId('patient-dateOfBirth'), '02/30/1980');
    await user.type(screen.getByTestId('patient-email'), 'not-an-email');
    await user.type(screen.getByTestId('patient-zip'), '1234');
    await user.type(screen.getByTestId('patient-phone-0'), '12345');
    await user.click(screen.getByTestId('patient-save'));
    expect(await screen.findAllByText('Please enter name')).toHaveLength(2);
    expect(screen.getByText('This date does not exist; check the month and the day')).toBeInTheDocument();
    expect(screen.getByText('Email not valid format')).toBeInTheDocument();
    expect(screen.getByText('ZIP code not valid')).toBeInTheDocument();
    expect(screen.getByText('Phone number not valid')).toBeInTheDocument();
    expect(calls.some((call) => call.path.startsWith('/api/patients'))).toBe(false);
  });

  it('warns about a probable duplicate, links to it, and creates only when asked', async () => {
    const { calls } = fakeApi([
      ...formRoutes,
      {
        method: 'POST',
        path: '/api/patients/checkifpatientalreadyexists',
        body: [{ id: patientId, fullName: 'Ana López', birthDate: '1980-04-12', matchedOn: 'lastNameAndDateOfBirth' }],
      },
      { method: 'POST', path: '/api/patients/create', status: 201, body: created },
    ]);
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByTestId('patient-firstName'), 'Ana');
    await user.type(screen.getByTestId('patient-lastName'), 'López');
    await user.type(screen.getByTestId('patient-dateOfBirth'), '04/12/1980');
    await user.type(screen.getByTestId('patient-phone-0'), '(555) 201-3344');
    await user.click(screen.getByTestId('patient-save'));
    const warning = await screen.findByTestId('patient-duplicates');
    expect(within(warning).getByTestId('patient-duplicate-link')).toHaveAttribute(
      'href',
      `/patients/patientdashboard/${patientId}`,
    );
    expect(calls.find((call) => call.path === '/api/patients/checkifpatientalreadyexists')?.body).toMatchObject({
      lastName: 'López',
      dateOfBirth: '1980-04-12',
    });
    expect(calls.some((call) => call.path === '/api/patients/create')).toBe(false);
    await user.click(within(warning).getByTestId('patient-create-anyway'));
    await screen.findByTestId('list-page');
    const body = calls.find((call) => call.path === '/api/patients/create')?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      firstName: 'Ana',
      dateOfBirth: '1980-04-12',
      weight: 0,
      enableEmail: true,
      enableText: true,
      patientPhoneNumbers: [{ phoneType: 7, number: '(555) 201-3344', isPrimary: true }],
    });
  });

  it('creates at once when there is no duplicate', async () => {
    const { calls } = fakeApi([
      ...formRoutes,
      { method: 'POST', path: '/api/patients/checkifpatientalreadyexists', body: [] },
      { method: 'POST', path: '/api/patients/create', status: 201, body: created },
    ]);
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByTestId('patient-firstName'), 'Ana');
    await user.type(screen.getByTestId('patient-lastName'), 'López');
    await user.type(screen.getByTestId('patient-dateOfBirth'), '04/12/1980');
    await user.click(screen.getByTestId('patient-remove-phone-0'));
    await user.click(screen.getByTestId('patient-enableText'));
    await user.click(screen.getByTestId('patient-save'));
    await screen.findByTestId('list-page');
    const body = calls.find((call) => call.path === '/api/patients/create')?.body as Record<string, unknown>;
    expect(body).toMatchObject({ enableEmail: true, enableText: false, patientPhoneNumbers: [] });
  });
});

describe('patient form: referral and clinical history', () => {
  async function pick(user: ReturnType<typeof userEvent.setup>, testId: string, option: string) {
    const input = screen.getByTestId(testId);
    await user.click(input);
    // Every select keeps its list in the page: take the one this input controls.
    const listbox = await waitFor(() => document.getElementById(input.getAttribute('aria-controls') ?? '')!);
    await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
    await user.keyboard('{Escape}');
  }

  it('sends the referring provider (its source filling the empty source) and the history codes, None alone', async () => {
    const { calls } = fakeApi([
      ...formRoutes,
      { method: 'POST', path: '/api/patients/checkifpatientalreadyexists', body: [] },
      { method: 'POST', path: '/api/patients/create', status: 201, body: created },
    ]);
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByTestId('patient-firstName'), 'Ana');
    await user.type(screen.getByTestId('patient-lastName'), 'López');
    await user.type(screen.getByTestId('patient-dateOfBirth'), '04/12/1980');
    await user.click(screen.getByTestId('patient-remove-phone-0'));
    await pick(user, 'patient-referringProviderId', 'Helen Park, MD · Westlake Orthopedics');
    expect(screen.getByTestId('patient-referralSource')).toHaveValue('Physician referral');
    await pick(user, 'patient-diseaseStates', 'Migraine');
    await pick(user, 'patient-diseaseStates', 'Diabetes');
    await pick(user, 'patient-psychiatricHistory', 'Depression');
    await pick(user, 'patient-psychiatricHistory', 'None');
    await pick(user, 'patient-surgicalHistory', 'Spinal fusion');
    await user.click(screen.getByTestId('patient-save'));
    await waitFor(() => expect(calls.some((call) => call.path === '/api/patients/create')).toBe(true));
    const body = calls.find((call) => call.path === '/api/patients/create')?.body as Record<string, unknown>;
    // Codes of enumerations.ts: Diabetes 1, Migraine 18; psychiatric None 11; Spinal fusion 3.
    expect(body).toMatchObject({
      referralSource: 1,
      referringProviderId: referralId,
      diseaseStates: [1, 18],
      psychiatricHistory: [11],
      surgicalHistory: [3],
    });
  }, 60_000);
});

describe('top-bar patient search', () => {
  const renderSearch = () =>
    renderAt(<PatientSearch />, {
      extraRoutes: [{ path: '/patients/patientdashboard/:id', element: <p data-testid="dashboard">dashboard</p> }],
    });

  it('waits for 3 characters, then lists full name and MM/DD/YYYY birth date linking to the dashboard', async () => {
    const { calls } = fakeApi([
      { path: '/api/patients/search', body: [{ id: patientId, fullName: 'María González', birthDate: '1975-09-30' }] },
    ]);
    const user = userEvent.setup();
    renderSearch();
    const input = screen.getByTestId('patient-search');
    await user.type(input, 'go');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(calls.some((call) => call.path === '/api/patients/search')).toBe(false);
    await user.type(input, 'n');
    const result = await screen.findByTestId('patient-search-result');
    expect(result).toHaveTextContent('María González');
    expect(result).toHaveTextContent('09/30/1975');
    const searches = calls.filter((call) => call.path === '/api/patients/search');
    expect(searches).toHaveLength(1);
    await user.click(result);
    expect(await screen.findByTestId('dashboard')).toBeInTheDocument();
  });

  it('says so when nothing matches', async () => {
    fakeApi([{ path: '/api/patients/search', body: [] }]);
    const user = userEvent.setup();
    renderSearch();
    await user.type(screen.getByTestId('patient-search'), 'zzz');
    expect(await screen.findByText('No matching record found')).toBeInTheDocument();
  });

  it('closes the results 0.5 s after a click outside', async () => {
    fakeApi([{ path: '/api/patients/search', body: [] }]);
    const user = userEvent.setup();
    renderSearch();
    await user.type(screen.getByTestId('patient-search'), 'zzz');
    await screen.findByText('No matching record found');
    await user.click(document.body);
    expect(screen.getByText('No matching record found')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('No matching record found')).not.toBeInTheDocument(), { timeout: 1500 });
  });
});
