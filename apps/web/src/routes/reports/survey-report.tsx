import { SurveyReport } from '../../features/reports/survey/survey-report';

/** /reports/surveyreport (side menu Reports; System Manager, Admin, Doctor). */
export function Component() {
  return <SurveyReport />;
}
