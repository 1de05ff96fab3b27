// MikroORM property type for Amount columns: `numeric(78, 18)` in PostgreSQL, exchanged as decimal strings (the pg
// driver returns numeric as a string, so no float is involved on either side).
import { Type, type EntityProperty, type Platform } from '@mikro-orm/core';
import { AMOUNT_SCALE, Amount, MAX_AMOUNT_INTEGER_DIGITS } from './amount.js';

/** Column type of every stored amount: 60 integer digits, 18 decimal places. */
export const AMOUNT_COLUMN_TYPE = `numeric(${MAX_AMOUNT_INTEGER_DIGITS + AMOUNT_SCALE},${AMOUNT_SCALE})`;

/** Use as `p.type(AmountType)` (add `.nullable()` for optional amounts). */
export class AmountType extends Type<Amount | null | undefined, string | null | undefined> {
  override convertToDatabaseValue(value: Amount | null | undefined): string | null | undefined {
    if (value == null) return value;
    // Query conditions may carry an already formatted string; normalise it through Amount.
    const raw: unknown = value;
    return (raw instanceof Amount ? raw : Amount.fromDecimalString(String(raw))).toString();
  }

  override convertToJSValue(value: string | null | undefined): Amount | null | undefined {
    if (value == null) return value;
    const raw: unknown = value;
    return raw instanceof Amount ? raw : Amount.fromDecimalString(String(raw));
  }

  /** Changes are detected on the canonical string, so "1.500000000000000000" from the driver equals "1.5". */
  override compareAsType(): string {
    return 'string';
  }

  override toJSON(value: Amount | null | undefined): string | null | undefined {
    return value == null ? value : value.toString();
  }

  override getColumnType(_prop: EntityProperty, _platform: Platform): string {
    return AMOUNT_COLUMN_TYPE;
  }
}
