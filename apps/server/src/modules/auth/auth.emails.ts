/** Texts of the account emails. English for now: staff accounts carry no language preference yet. */
export const accountEmails = {
  confirmSignUp: (link: string) => ({
    subject: 'Confirm your Pathwell account',
    body: `Welcome to Pathwell.\n\nConfirm your email address by opening this link (valid for 24 hours):\n${link}\n\nIf you did not sign up, ignore this email.`,
  }),
  alreadyRegistered: (link: string) => ({
    subject: 'You already have a Pathwell account',
    body: `Someone tried to sign up with this email address, which already has an account.\n\nIf it was you, sign in or reset your password here:\n${link}`,
  }),
  resetPassword: (link: string) => ({
    subject: 'Reset your Pathwell password',
    body: `We received a request to reset your password.\n\nChoose a new password by opening this link (valid for 60 minutes):\n${link}\n\nIf you did not ask for this, ignore this email; your password stays as it is.`,
  }),
  welcome: (link: string) => ({
    subject: 'Set up your Pathwell account',
    body: `An account has been created for you in Pathwell.\n\nSet your password by opening this link (valid for 72 hours):\n${link}`,
  }),
  twoFactorCode: (code: string) => ({
    subject: 'Your Pathwell sign-in code',
    body: `Your sign-in code is ${code}.\n\nIt expires in 10 minutes and works once. If you did not try to sign in, change your password.`,
  }),
};
