// Loan numbers (spec: loan_number, a string; format decided here): `LN-` + two groups of five Crockford base32
// characters, e.g. `LN-7K2MQ-9QXD4`. Random rather than sequential, so a shopper's loan number does not reveal a
// merchant's sales volume; 50 bits, unique in the database (a collision is retried by the booking).
import { randomInt } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const LOAN_NUMBER_PATTERN = /^LN-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;

export function generateLoanNumber(): string {
  const group = () => Array.from({ length: 5 }, () => CROCKFORD[randomInt(CROCKFORD.length)]).join('');
  return `LN-${group()}-${group()}`;
}
