import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

/**
 * "+34 612 34 56 78" as people write it; the stored value as it is when it is not a number libphonenumber knows.
 * (The contract already loads libphonenumber's small metadata for the form's checks, so this costs nothing more.)
 */
export function formatPhone(phone: string): string {
  return parsePhoneNumberFromString(phone)?.formatInternational() ?? phone;
}
