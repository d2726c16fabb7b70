import { ReferralTracker } from '../../features/reports/referrals/referral-tracker';

/** /reports/refferaltracker (the specification's spelling; Reports roles of section 6). */
export function Component() {
  return <ReferralTracker />;
}
