import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorText } from './error-text';
import { changeLanguage } from './i18n';

const conflict = new ApiError(
  409,
  {
    error: 'An appointment that is Completed cannot become Upcoming',
    code: 'CONFLICT',
    messageKey: 'statusChangeNotAllowed',
    params: { from: 3, to: 2 },
  },
  'An appointment that is Completed cannot become Upcoming',
);

describe('server messages on the staff screens', () => {
  afterEach(async () => {
    await changeLanguage('en');
  });

  it('shows a keyed server message in Spanish, with its parameters, to a Spanish-speaking user', async () => {
    await changeLanguage('es');
    expect(errorText(conflict)).toBe('Una cita en estado «Completada» no puede pasar a «Próxima»');
    await changeLanguage('en');
    expect(errorText(conflict)).toBe('An appointment that is Completed cannot become Upcoming');
  });

  it('translates validation keys named as the message, and keeps an unknown key’s text as sent', async () => {
    await changeLanguage('es');
    const taken = new ApiError(
      409,
      { error: 'This name is already in the list', code: 'CONFLICT', messageKey: 'nameTaken' },
      'x',
    );
    expect(errorText(taken)).toBe('Este nombre ya está en la lista');
    const unknown = new ApiError(400, { error: 'Something new', code: 'VALIDATION', messageKey: 'notAKey' }, 'x');
    expect(errorText(unknown)).toBe('Something new');
  });
});
