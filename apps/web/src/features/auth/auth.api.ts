import type { z } from 'zod';
import type {
  ChangePassword,
  SetPassword,
  SignIn,
  SignInResult,
  SignUp,
  confirmSignUpSchema,
  forgetPasswordSchema,
} from '@pathwell/contracts/users';
import { api } from '../../lib/api-client';

type Message = { message: string };

export const authApi = {
  authenticate: (input: SignIn) => api.post<SignInResult>('/api/users/authenticate', input),
  verifyTwoFactor: (input: { challengeId: string; code: string }) => api.post<SignInResult>('/api/users/twofactor/verify', input),
  resendTwoFactor: (challengeId: string) => api.post<Message>('/api/users/twofactor/send', { challengeId }),
  signUp: (input: SignUp) => api.post<Message>('/api/users', input),
  confirmSignUp: (input: z.output<typeof confirmSignUpSchema>) => api.post<Message>('/api/users/confirmSignup', input),
  forgetPassword: (input: z.output<typeof forgetPasswordSchema>) => api.post<Message>('/api/users/forgetPassword', input),
  setPassword: (input: SetPassword) => api.post<Message>('/api/users/setPassword', input),
  resendWelcomeEmail: (id: string) => api.post<Message>('/api/users/resendWelcomeEmail', { id }),
  changePassword: (input: ChangePassword) => api.post<Message>('/api/users/changepassword', input),
  signOut: () => api.post<void>('/api/users/signout', {}, { background: true }),
};
