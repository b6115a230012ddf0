import { describe, expect, it } from 'vitest';
import { consultationForm, genderLabel } from './schema.js';

const valid = {
  name: 'Asha Rao',
  email: 'asha@example.test',
  gender: 2,
  age: 34,
  height: '5\'4"',
  weight: 62.5,
  state: 'Karnataka',
  contact: '9876543210',
  country: 356,
  isMedicalCondition: false,
};

const firstMessage = (patch: Record<string, unknown>) => {
  const r = consultationForm.safeParse({ ...valid, ...patch });
  return r.success ? null : r.error.issues[0]?.message;
};

describe('consultationForm', () => {
  it('accepts a complete booking', () => {
    expect(consultationForm.parse(valid)).toEqual(valid);
  });

  it('accepts what the HTML form sends: text numbers and radio strings', () => {
    const parsed = consultationForm.parse({ ...valid, gender: '3', age: '41', weight: '80', country: '356', isMedicalCondition: '1' });
    expect(parsed).toMatchObject({ gender: 3, age: 41, weight: 80, country: 356, isMedicalCondition: true });
    expect(consultationForm.parse({ ...valid, isMedicalCondition: '0' }).isMedicalCondition).toBe(false);
  });

  it('keeps only the digits people type around a phone number', () => {
    expect(consultationForm.parse({ ...valid, contact: '+91 98765-43210' }).contact).toBe('919876543210');
    expect(consultationForm.parse({ ...valid, contact: 9876543210 }).contact).toBe('9876543210');
  });

  it.each([
    [{ contact: '' }, 'Contact is required'],
    [{ contact: undefined }, 'Contact is required'],
    [{ contact: '98765' }, 'Contact must be between 10 and 13 digits'],
    [{ contact: '98765432101234' }, 'Contact must be between 10 and 13 digits'],
    [{ contact: '98765abc10' }, 'Contact must be between 10 and 13 digits'],
    [{ age: 1000 }, 'Age cannot exceed 3 digits'],
    [{ age: 0 }, 'Age must be more than 0'],
    [{ age: 30.5 }, 'Age must be a whole number'],
    [{ weight: 1000 }, 'Weight cannot exceed 3 digits'],
    [{ weight: -1 }, 'Weight must be more than 0'],
    [{ gender: 4 }, 'Choose Male, Female or Other'],
    [{ isMedicalCondition: 'maybe' }, 'Answer Yes or No'],
    [{ isMedicalCondition: '' }, 'Condition is required'],
    [{ country: 'India' }, 'Choose a country from the list'],
  ])('refuses %j with "%s"', (patch, message) => {
    expect(firstMessage(patch)).toBe(message);
  });

  it.each([
    ['a@example.test, b@example.test', 'Enter a valid email address, like name@example.com'],
    ['not-an-address', 'Enter a valid email address, like name@example.com'],
    ['', 'Email is required'],
  ])('takes one e-mail address only: %j → "%s"', (email, message) => {
    expect(firstMessage({ email })).toBe(message);
  });

  it.each(['http://x.example', 'www.x', 'go to prize.example', 'me@x', 'a<b', 'evil。com'])(
    'refuses a name that could become a link: %j',
    (name) => {
      expect(firstMessage({ name })).toMatch(/without web or email addresses/);
    },
  );

  it.each(['Asha Rao', 'Dr. Sharma', 'S. K. Rao', "Jean-Luc O'Neil", 'आशा राव'])('takes the name %j', (name) => {
    expect(firstMessage({ name })).toBeNull();
  });

  it('reports one message per failing field', () => {
    const r = consultationForm.safeParse({ ...valid, contact: 'abc' });
    expect(r.error?.issues).toHaveLength(1);
  });

  it('has no default gender: a form left on none is refused with the required message', () => {
    expect(firstMessage({ gender: '' })).toBe('Gender is required');
    expect(genderLabel(2)).toBe('Female');
  });
});
